# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: The keep decision is a two-class jax.random.categorical draw with logits log([rate, 1-rate]) (class 1 = keep), one per element; otherwise the same as the reference.
# SHOULD-SAY: full marks for ex1; every check of ex1 passes.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    logits = jnp.log(jnp.array([rate, keep], dtype=jnp.float32))
    keep_mask = jax.random.categorical(key, logits, shape=x.shape) == 1
    return jnp.where(keep_mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
