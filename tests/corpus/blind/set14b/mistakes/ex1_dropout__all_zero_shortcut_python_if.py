# BLIND-SET: 14
# EXERCISE: ex1
# WHAT: dropout adds a "nothing to drop" shortcut `if not jnp.any(x): return x`, a Python `if` on array values that is fine eagerly but cannot be traced by jax.jit.
# SHOULD-SAY: Eager behaviour is right (rate, rescaling, train=False/rate=0, independence, keys, MLP placement all pass), but dropout and forward_with_dropout fail under jax.jit with a concretization / TracerBoolConversionError: the shortcut branches in Python on the contents of `x`; remove it (only `rate` and `train` may be tested with plain `if`).
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    # After a ReLU many layers are all zeros early in training; no need to
    # draw random numbers for them.
    if not jnp.any(x):
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
