# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: each element keeps if an Exp(1) draw exceeds -log(1-rate) (P = 1-rate exactly), using jax.random.exponential; survivors scaled with jnp.where. The MLP is written as a loop over (layer, key) pairs built with zip over a split key array, dropout only on the hidden layers.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout via an exponential threshold."""

import math

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # P(E > t) = exp(-t) for E ~ Exp(1); with t = -log(keep) that is `keep`.
    threshold = -math.log(keep)
    survive = jax.random.exponential(key, x.shape) > threshold
    return jnp.where(survive, x / keep, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    hidden = ("layer1", "layer2")
    h = x
    for name, layer_key in zip(hidden, jax.random.split(key, len(hidden))):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(layer_key, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
