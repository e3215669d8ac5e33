"""Dropout on the input pixels as well as after the hidden layers."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.placement", "mistake": "ex1.placement", "max_failing": 1, "hint": "not on the input"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k0, k1, k2 = jax.random.split(key, 3)
    x = dropout(k0, x, rate, train)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
