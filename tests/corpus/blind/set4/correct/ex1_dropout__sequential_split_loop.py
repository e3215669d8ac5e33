# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: forward_with_dropout loops over the two hidden layers, carrying the key and splitting off a fresh subkey for each.
# SHOULD-SAY: full marks
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
    h = x
    for name in ("layer1", "layer2"):
        key, subkey = jax.random.split(key)
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(subkey, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
