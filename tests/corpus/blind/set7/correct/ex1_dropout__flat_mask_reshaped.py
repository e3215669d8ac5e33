# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: the mask is drawn as one flat vector of x.size independent coins (jax.random.bernoulli on (x.size,)) and reshaped to x.shape; scaling uses x * mask / keep with an explicit cast. forward_with_dropout short-circuits train=False (and rate 0) to a private plain-forward helper and nests each dropout call around its ReLU.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout with a flat mask reshaped to the input."""

import jax
import jax.numpy as jnp


def _plain_forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    flat = jax.random.bernoulli(key, p=keep, shape=(x.size,))
    mask = flat.reshape(x.shape).astype(x.dtype)
    return x * mask / keep


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if not train or rate == 0.0:
        return _plain_forward(params, x)
    k1, k2 = jax.random.split(key)
    h = dropout(k1, jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"]), rate)
    h = dropout(k2, jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"]), rate)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
