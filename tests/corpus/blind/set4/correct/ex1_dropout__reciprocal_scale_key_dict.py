# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Survivors are scaled by multiplying with the precomputed reciprocal 1/keep, and the two keys are kept in a dict keyed by layer name.
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
    scale = 1.0 / keep
    return jnp.where(mask, x, jnp.zeros_like(x)) * scale


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = dict(zip(["layer1", "layer2"], jax.random.split(key)))
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(keys["layer1"], h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(keys["layer2"], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
