"""Dropout after every layer, the output layer included: the logits are dropped too."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.placement", "mistake": "ex1.placement", "max_failing": 1, "hint": "not on the logits"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    keys = jax.random.split(key, 3)
    h = x
    for i, name in enumerate(["layer1", "layer2", "layer3"]):
        h = h @ params[name]["w"] + params[name]["b"]
        if name != "layer3":
            h = jax.nn.relu(h)
        h = dropout(keys[i], h, rate, train)
    return h
