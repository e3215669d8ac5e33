"""The key is split, but the first new key feeds both dropout layers (k1 twice, k2 unused)."""

import jax
import jax.numpy as jnp
import numpy as np

EXPECT = {"check": "ex1.separate_keys", "mistake": "ex1.same_key_both_layers", "hint": "same key", "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k1, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k1, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
