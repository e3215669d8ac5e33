"""forward_with_dropout makes its own PRNGKey(0) instead of using its key: every call gets the same masks."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.forward_keys", "mistake": "ex1.forward_not_pure_in_key", "max_failing": 1, "hint": "pure function of its key"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(jax.random.PRNGKey(0))
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
