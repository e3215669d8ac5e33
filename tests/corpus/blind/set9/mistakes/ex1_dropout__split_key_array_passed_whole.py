# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: forward_with_dropout splits the key into an array `keys` of two keys but passes the whole (2, 2) array to both dropout calls; jax.random.bernoulli rejects a key array, so training mode raises ValueError (train=False still works).
# SHOULD-SAY: ex1 MLP training-mode checks error (bernoulli given a key array of shape (2, 2)); dropout() and train=False pass.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


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
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(keys, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(keys, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
