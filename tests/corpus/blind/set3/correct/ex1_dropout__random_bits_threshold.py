# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Builds the keep mask from raw 32-bit random integers (jax.random.bits) compared with an integer threshold, and scales with jnp.where(mask, x, 0) / keep.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout from raw random bits."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    threshold = jnp.uint32(min(int(keep * 2**32), 2**32 - 1))
    bits = jax.random.bits(key, x.shape, dtype=jnp.uint32)
    mask = bits < threshold
    return (jnp.where(mask, x, 0.0) / keep).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
