# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: An element survives when a Poisson(lam) draw is 0, with lam = -log(1 - rate), so P(keep) = exp(-lam) = 1 - rate; keys are the first two of a three-way split (the third is unused).
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout from a Poisson zero-count event."""

import math

import jax
import jax.numpy as jnp


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    if (not train) or rate == 0.0:
        return x
    lam = -math.log(1.0 - rate)
    survive = jax.random.poisson(key, lam, x.shape) == 0
    return jnp.where(survive, x / (1.0 - rate), jnp.float32(0.0)).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    keys = jax.random.split(key, 3)  # keys[2] is spare; never the parent key
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(keys[0], h, rate, train=train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(keys[1], h, rate, train=train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
