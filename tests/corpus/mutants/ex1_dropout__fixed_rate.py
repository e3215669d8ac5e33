"""dropout keeps half the elements whatever rate it is given (the lesson's 0.5 written in)."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "", "hint": "whatever rate was passed", "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    mask = jax.random.bernoulli(key, 0.5, x.shape)
    return jnp.where(mask, x / (1.0 - rate), 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k1, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
