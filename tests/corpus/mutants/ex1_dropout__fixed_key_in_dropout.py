"""dropout ignores its key and draws from a fixed PRNGKey(0): the same mask on every call."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.key_only_randomness", "mistake": "ex1.key_ignored", "max_failing": 1, "hint": "key argument is being ignored"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(jax.random.PRNGKey(0), keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
