"""Survivors are kept as they are: no division by 1 - rate."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.rescale", "mistake": "ex1.no_rescale", "max_failing": 1, "hint": "not rescaled"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    mask = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(mask, x, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
