# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout zeroes with NumPy-style boolean-mask assignment, x.at[dropped].set(0.0) / keep: right eagerly, but boolean indices must be concrete, so it raises NonConcreteBooleanIndexError under jax.jit (and vmap).
# SHOULD-SAY: ex1 jit-consistency checks error for dropout and forward_with_dropout with NonConcreteBooleanIndexError (boolean mask used as an index inside jit); the eager checks (rate, rescale, keys, placement) pass. Fix: jnp.where(mask, x / keep, 0).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    dropped = jax.random.bernoulli(key, rate, x.shape)
    return x.at[dropped].set(0.0) / keep


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
