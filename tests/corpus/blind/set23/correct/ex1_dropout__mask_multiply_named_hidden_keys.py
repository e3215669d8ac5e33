# BLIND-SET: 23
# EXERCISE: ex1
# WHAT: correct rewrite: dropout multiplies by a float survivor mask and divides by the keep probability; the MLP walks the two hidden layers in a loop with a name->key dict built from one split
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout, written with a multiplicative mask."""

import jax
import jax.numpy as jnp

_HIDDEN = ("layer1", "layer2")


def dropout(key, x, rate, train=True):
    """Inverted dropout: keep each element with probability 1 - rate."""
    if train and rate > 0:
        keep_prob = 1.0 - rate
        survivors = jax.random.bernoulli(key, p=keep_prob, shape=jnp.shape(x))
        return x * survivors.astype(x.dtype) / keep_prob
    return x


def _dense(layer, h):
    return jnp.dot(h, layer["w"]) + layer["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP, dropout after each hidden ReLU, one key per dropout."""
    layer_keys = dict(zip(_HIDDEN, jax.random.split(key, len(_HIDDEN))))
    h = x
    for name in _HIDDEN:
        h = jax.nn.relu(_dense(params[name], h))
        h = dropout(layer_keys[name], h, rate, train=train)
    return _dense(params["layer3"], h)
