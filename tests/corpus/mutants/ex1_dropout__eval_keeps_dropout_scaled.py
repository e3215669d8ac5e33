"""With train=False the forward pass still calls dropout in training mode and then multiplies by (1 - rate), a
half-remembered "scale at inference" rule: evaluation stays random."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.eval_random", "max_failing": 1, "hint": "must not depend on the key"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    scale = 1.0 if train else 1.0 - rate
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, True) * scale
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, True) * scale
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
