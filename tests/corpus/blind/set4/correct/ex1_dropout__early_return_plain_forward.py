# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Dropout from a uniform draw (u < keep) multiplied as a float mask; forward_with_dropout returns the plain forward pass early when train is False and indexes split(key, num=2).
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout, early return for evaluation."""

import jax
import jax.numpy as jnp


def _dense(layer, h):
    return h @ layer["w"] + layer["b"]


def forward(params, x):
    h = jax.nn.relu(_dense(params["layer1"], x))
    h = jax.nn.relu(_dense(params["layer2"], h))
    return _dense(params["layer3"], h)


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.uniform(key, x.shape) < keep
    return x * mask.astype(x.dtype) / keep


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    if not train:
        return forward(params, x)
    keys = jax.random.split(key, num=2)
    h = dropout(keys[0], jax.nn.relu(_dense(params["layer1"], x)), rate)
    h = dropout(keys[1], jax.nn.relu(_dense(params["layer2"], h)), rate)
    return _dense(params["layer3"], h)
