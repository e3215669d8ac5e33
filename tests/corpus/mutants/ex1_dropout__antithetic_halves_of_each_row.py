"""Variance reduction by antithetic draws: each row's uniforms are drawn for the first half of its units and the
second half takes 1 - u of them, so at rate 0.5 unit j and unit j + width / 2 of a row are never both kept."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.per_element", "mistake": "ex1.paired_coins", "max_failing": 1,
          "hint": "its own independent draw"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    width = x.shape[-1]
    u = jax.random.uniform(key, (*x.shape[:-1], (width + 1) // 2))
    u = jnp.concatenate([u, 1.0 - u], axis=-1)[..., :width]
    return jnp.where(u < keep, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
