"""The second hidden layer goes through dropout twice (a dropout call left in after the ReLU was moved into a
helper that drops too), each with a key of its own. dropout itself is right; placement counts two masks of
shape (B, 128) and says so.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.placement", "mistake": "", "hint": "more than once", "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), x / keep, 0.0).astype(x.dtype)


def _dense_relu_dropout(key, layer, h, rate, train):
    return dropout(key, jax.nn.relu(h @ layer["w"] + layer["b"]), rate, train)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2, key3 = jax.random.split(key, 3)
    h = _dense_relu_dropout(key1, params["layer1"], x, rate, train)
    h = _dense_relu_dropout(key2, params["layer2"], h, rate, train)
    h = dropout(key3, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
