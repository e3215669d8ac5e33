# BLIND-SET: 35
# EXERCISE: ex1
# WHAT: forward_with_dropout picks each layer's key with lax.index_in_dim(keys, i), whose keepdims defaults to True, so every "key" has shape (1, 2) instead of (2,); jax.random.bernoulli rejects a batch of keys and forward_with_dropout raises ValueError whenever train=True and rate > 0 (train=False and dropout itself are fine).
# SHOULD-SAY: lax.index_in_dim keeps the indexed axis by default, giving a key array of shape (1, 2); pass keepdims=False (or just write keys[i], or key1, key2 = jax.random.split(key)) so each dropout layer gets a single key.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp
from jax import lax


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 2)
    h = x
    for i, name in enumerate(("layer1", "layer2")):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(lax.index_in_dim(keys, i, axis=0), h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
