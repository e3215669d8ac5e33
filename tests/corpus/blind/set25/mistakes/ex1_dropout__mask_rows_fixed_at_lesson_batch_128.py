# BLIND-SET: 25
# EXERCISE: ex1
# WHAT: dropout draws its mask with shape (BATCH_SIZE, x.shape[-1]) using the lesson's batch size of 128 instead of x.shape. It is right only for a (128, F) input; a single row (1, F) broadcasts silently to a (128, F) output, and any other batch size or a 1-D / 3-D input raises a broadcasting error.
# SHOULD-SAY: The mask must have exactly the shape of x (jax.random.bernoulli(key, keep, x.shape)); the lesson's batch size 128 belongs to the data pipeline, not to dropout, and jnp.where broadcasting hides the mismatch when B is 1. Use x.shape.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp

BATCH_SIZE = 128  # the lesson's batch size


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, (BATCH_SIZE, x.shape[-1]))
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
