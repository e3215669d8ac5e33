# BLIND-SET: 52
# EXERCISE: ex1
# WHAT: the hidden layers are enumerated from 1 (to match "layer1", "layer2") and that index picks the key from jax.random.split(key), which has only rows 0 and 1; JAX clamps the out-of-range keys[2] to keys[1], so both dropout layers silently use the same key keys[1] (layer 2's mask is the layer-1 mask's key reused), and keys[0] is never used.
# SHOULD-SAY: Both dropout layers in forward_with_dropout get the same key. enumerate(..., 1) makes the indices 1 and 2, but split(key) gives only two keys (0 and 1), and JAX does not raise on keys[2]: it clamps it to the last key. Index from 0 (enumerate(...) without start) or unpack k1, k2 = jax.random.split(key) and zip the keys with the layers.
"""Exercise 1: dropout with split PRNG keys (layers enumerated from one)."""

from functools import reduce

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability rate, scale survivors by 1/(1-rate)."""
    keep = 1.0 - rate
    return x if not train or rate == 0 else jnp.where(jax.random.uniform(key, x.shape) < keep, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP, dropout after hidden layer i with key i."""
    keys = jax.random.split(key)
    dense = lambda h, p: h @ p["w"] + p["b"]
    h = reduce(
        lambda h, ip: dropout(keys[ip[0]], jax.nn.relu(dense(h, ip[1])), rate, train),
        enumerate(map(params.__getitem__, ("layer1", "layer2")), 1),
        x,
    )
    return dense(h, params["layer3"])
