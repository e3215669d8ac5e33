"""The mask is drawn at half the width and upsampled to x's shape (nearest neighbour, as an image is), so
elements 2k and 2k+1 of every row share one coin."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.per_element", "mistake": "ex1.neighbours_share_coins", "max_failing": 1,
          "hint": "one coin per element"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    coarse = jax.random.uniform(key, (*x.shape[:-1], (x.shape[-1] + 1) // 2)) < keep
    mask = jax.image.resize(coarse.astype(x.dtype), (*x.shape[:-1], 2 * coarse.shape[-1]), "nearest")
    return x * mask[..., : x.shape[-1]] / keep


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
