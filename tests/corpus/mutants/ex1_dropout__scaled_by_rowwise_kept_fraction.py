"""dropout rescales each row's survivors by how many of that row its mask kept, so every row keeps its sum
in expectation "exactly": the factor is random, not 1 / (1 - rate)."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.rescale", "mistake": "ex1.scaled_by_fraction_kept", "hint": "fixed factor",
          "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    mask = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    if x.ndim == 0:
        return jnp.where(mask, x / (1.0 - rate), 0.0)
    count = jnp.maximum(jnp.sum(mask, axis=-1, keepdims=True), 1)
    return jnp.where(mask, x * (x.shape[-1] / count), 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
