# BLIND-SET: 46
# EXERCISE: ex1
# WHAT: dropout keeps a unit when its Exp(1) waiting time exceeds -log(rate) instead of -log(1 - rate), so the survival probability is rate rather than 1 - rate (at rate 0.1 about 90% of elements are zeroed instead of 10%; survivors are still scaled by 1/(1-rate)). Only at rate 0.5 is the zero fraction right.
# SHOULD-SAY: the fraction of zeroed elements is 1 - rate instead of rate: the threshold uses the drop probability where the survival probability belongs. P(E > t) = exp(-t) is the keep probability, so t must be -log(1 - rate) (or simply keep where uniform < 1 - rate).
"""Exercise 1: inverted dropout, written as a survival model.

Each unit gets an exponential waiting time E ~ Exp(1); it survives the
training step if E outlasts a threshold t. Since P(E > t) = exp(-t), the
threshold fixes the Bernoulli parameter of the keep mask.
"""

import math

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout via exponential survival times; E[output] = x."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate                      # Bernoulli parameter of the keep mask
    threshold = -math.log(rate)            # P(E > t) = exp(-t)
    waiting = jax.random.exponential(key, x.shape)
    survives = waiting > threshold
    return jnp.where(survives, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
