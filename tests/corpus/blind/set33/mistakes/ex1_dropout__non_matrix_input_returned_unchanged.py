# BLIND-SET: 33
# EXERCISE: ex1
# WHAT: dropout() returns its input untouched whenever x is not 2-D (an input check meant to restrict it to (batch, features) activations), so a 1-D or 3-D array is never dropped or rescaled even with train=True and rate > 0.
# SHOULD-SAY: The contract says x may have any shape; the `if x.ndim != 2: return x` guard silently turns dropout off for vectors and higher-rank arrays. Remove the rank check: bernoulli(key, keep, x.shape) already works for any shape.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    if x.ndim != 2:
        # Defensive: dropout is meant for (batch, features) activations only.
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
