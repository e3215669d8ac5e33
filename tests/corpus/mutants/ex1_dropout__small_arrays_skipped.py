"""Dropout is skipped for small arrays (under 1,024 elements, "not worth the random numbers"): a single example
or a vector passes through untouched in training."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.per_element", "mistake": "ex1.other_shapes", "max_failing": 1, "hint": "skipping small batches"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    if x.size < 1024:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
