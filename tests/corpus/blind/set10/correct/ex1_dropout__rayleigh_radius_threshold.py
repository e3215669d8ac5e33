# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: dropout keeps an element when a Rayleigh(1) draw r satisfies r*r < -2*ln(rate) (probability exactly 1-rate); forward splits the key into four and uses two distinct ones (keys[0] and keys[2]).
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout from Rayleigh-distributed radii."""

import math

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate).

    For R ~ Rayleigh(1), P(R**2 < t) = 1 - exp(-t / 2), so with t = -2 ln(rate)
    an element survives with probability 1 - rate.
    """
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    r = jax.random.rayleigh(key, 1.0, x.shape)
    survive = r * r < -2.0 * math.log(rate)
    return jnp.where(survive, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP; dropout after the two hidden ReLUs, one key each."""
    keys = jax.random.split(key, 4)  # more than needed; each used at most once
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(keys[0], h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(keys[2], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
