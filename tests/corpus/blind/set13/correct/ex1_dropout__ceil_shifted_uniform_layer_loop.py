# BLIND-SET: 13
# EXERCISE: ex1
# WHAT: The keep mask is jnp.ceil(u - rate) for u ~ U[0,1) (1 with probability 1-rate, else 0), applied by multiplication, and the forward loops over the two hidden layers with keys taken from one split(key, 2) array.
# SHOULD-SAY: Everything is correct: zero fraction matches rate, survivors scaled by exactly 1/(1-rate), identity for train=False and rate=0, independent per-element masks driven only by the key, separate keys per dropout layer, dropout only after the hidden ReLUs, train=False equals the plain forward, and jit agrees.
"""Exercise 1 (variant): inverted dropout from a ceil-of-shifted-uniform mask."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    u = jax.random.uniform(key, x.shape, dtype=jnp.float32)
    keep_mask = jnp.ceil(u - rate)  # u in [0, 1): 1.0 when u > rate, else 0.0
    return ((x * keep_mask) / (1.0 - rate)).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 2)
    h = x
    for i, name in enumerate(("layer1", "layer2")):
        h = jnp.maximum(jnp.dot(h, params[name]["w"]) + params[name]["b"], 0.0)
        h = dropout(keys[i], h, rate, train)
    return jnp.dot(h, params["layer3"]["w"]) + params["layer3"]["b"]
