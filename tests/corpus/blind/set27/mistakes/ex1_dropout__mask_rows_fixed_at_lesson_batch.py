# BLIND-SET: 27
# EXERCISE: ex1
# WHAT: dropout draws its mask with the shape (128, x.shape[-1]) (the lesson's batch size as a module constant) instead of x.shape. With a batch of 128 it is right; a batch of 1 (or a 1-D x) broadcasts to a (128, features) output, and any other batch size (or a 3-D x) raises a broadcasting error, in dropout and in forward_with_dropout.
# SHOULD-SAY: The mask must have exactly the shape of x, whatever x is; the batch size is not always the lesson's 128. Draw it with jax.random.bernoulli(key, 1 - rate, x.shape) rather than a hard-coded (128, features) shape.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp

BATCH_SIZE = 128


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
