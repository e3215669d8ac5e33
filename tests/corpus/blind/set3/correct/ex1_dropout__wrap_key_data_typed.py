# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Converts the raw uint32 key to a new-style typed key with jax.random.wrap_key_data (leaving typed keys alone), splits typed keys, and draws the mask with jax.random.uniform(...) < keep.
# SHOULD-SAY: full marks
"""Exercise 1: dropout with new-style typed PRNG keys."""

import jax
import jax.numpy as jnp


def _typed(key):
    """Accept both old-style uint32 keys and new-style typed keys."""
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        return key
    return jax.random.wrap_key_data(key)


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.uniform(_typed(key), x.shape) < keep
    return jnp.where(mask, x * (1.0 / keep), jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    k1, k2 = jax.random.split(_typed(key))
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
