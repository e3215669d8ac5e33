"""The forward pass written for one example and vmapped over the batch, with the same key for every example.

Each layer's mask is drawn once, shaped (256,) and (128,), and shared by the whole batch.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.placement", "mistake": "ex1.mask_shared_across_batch", "hint": "one key per example",
          "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _one_example(params, x, key, rate, train):
    k1, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    return jax.vmap(lambda xi: _one_example(params, xi, key, rate, train))(x)
