"""Eval mode scales x by 1 - rate, as non-inverted dropout does at test time, on top of the train-mode rescaling."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.identity", "mistake": "", "hint": "non-inverted dropout", "max_failing": 1}


def dropout(key, x, rate, train=True):
    if rate == 0.0:
        return x
    if not train:
        return x * (1.0 - rate)
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k1, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
