# BLIND-SET: 18
# EXERCISE: ex1
# WHAT: the keep-mask comes from thresholding Weibull(scale=1, c=1.5) draws at t = (-log keep)**(1/c) (so P(keep) = 1 - rate), survivors are chosen with jax.lax.select, and the MLP is a loop over the two hidden layers that pulls its per-layer keys from an iterator over jax.random.split(key, 2).
# SHOULD-SAY: full marks
"""Exercise 1: dropout with split PRNG keys."""

import math

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------

_CONCENTRATION = 1.5
_HIDDEN = ("layer1", "layer2")


def _survivors(key, shape, keep):
    """Boolean mask, True with probability `keep`, independently per element.

    For W ~ Weibull(1, c), P(W >= t) = exp(-t**c); solving exp(-t**c) = keep
    gives the threshold below.
    """
    threshold = (-math.log(keep)) ** (1.0 / _CONCENTRATION)
    draws = jax.random.weibull_min(key, 1.0, _CONCENTRATION, shape)
    return draws >= threshold


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if rate == 0 or not train:
        return x
    keep = 1.0 - rate
    return jax.lax.select(_survivors(key, x.shape, keep), x / keep, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    layer_keys = iter(jax.random.split(key, len(_HIDDEN)))
    h = x
    for name in _HIDDEN:
        h = jax.nn.relu(jnp.matmul(h, params[name]["w"]) + params[name]["b"])
        h = dropout(next(layer_keys), h, rate, train)
    return jnp.matmul(h, params["layer3"]["w"]) + params["layer3"]["b"]
