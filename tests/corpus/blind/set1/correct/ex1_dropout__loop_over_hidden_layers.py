# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Loop over the layer names with one split key per hidden layer (haiku-style next key).
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
        key, sub = jax.random.split(key)
        h = jax.nn.relu(jnp.dot(h, params[name]["w"]) + params[name]["b"])
        h = dropout(sub, h, rate, train=train)
    return jnp.dot(h, params["layer3"]["w"]) + params["layer3"]["b"]
