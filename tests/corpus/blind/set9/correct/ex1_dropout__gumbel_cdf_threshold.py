# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Draws standard Gumbel noise and keeps an element when G <= -log(-log(1 - rate)) (the Gumbel CDF at that point is 1 - rate); the MLP loops over the two hidden layers with one split key each.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout via a Gumbel-CDF threshold."""

import math

import jax
import jax.numpy as jnp


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0:
        return x
    keep = 1.0 - rate
    # P(G <= t) = exp(-exp(-t)) for a standard Gumbel G; pick t so that this is `keep`.
    threshold = -math.log(-math.log(keep))
    survive = jax.random.gumbel(key, x.shape) <= threshold
    return jnp.where(survive, x * (1.0 / keep), jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP, dropout after each hidden ReLU, one fresh key per layer."""
    h = x
    for name, layer_key in zip(("layer1", "layer2"), jax.random.split(key, 2)):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(layer_key, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
