# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Mask cast to float and multiplied (`x * mask / keep`), and `functools.partial(dropout, rate=rate, train=train)` in the MLP.
# SHOULD-SAY: full marks
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import functools

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape).astype(x.dtype)
    return x * mask / keep


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    drop = functools.partial(dropout, rate=rate, train=train)
    k1, k2 = jax.random.split(key, num=2)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = drop(k1, h)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = drop(k2, h)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
