"""The key is split into one per example and the two layers take the first and the last: on a batch of one
example they are the same key, and the two masks are drawn from it.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.separate_keys", "mistake": "ex1.keys_by_batch_size", "hint": "whatever the batch size", "max_failing": 1}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, x.shape[0])
    key1, key2 = keys[0], keys[-1]
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
