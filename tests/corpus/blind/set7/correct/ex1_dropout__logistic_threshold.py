# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: the keep decision thresholds a standard logistic draw at logit(rate) (P(L > logit(rate)) = 1 - rate), via jax.random.logistic and jnp.greater; survivors scaled by multiplying with the reciprocal. forward_with_dropout derives per-layer keys with jax.random.fold_in(key, 1) and fold_in(key, 2) from a dict of layer indices.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout with a logistic threshold."""

import math

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    cut = math.log(rate / (1.0 - rate))  # logit(rate)
    keep_mask = jnp.greater(jax.random.logistic(key, x.shape), cut)
    scale = 1.0 / (1.0 - rate)
    return (x * scale) * keep_mask.astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    layer_keys = {name: jax.random.fold_in(key, i) for i, name in ((1, "layer1"), (2, "layer2"))}
    h = x
    for name in ("layer1", "layer2"):
        h = jnp.maximum(h @ params[name]["w"] + params[name]["b"], 0.0)
        h = dropout(layer_keys[name], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
