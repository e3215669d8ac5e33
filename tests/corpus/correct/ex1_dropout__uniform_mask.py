"""Dropout from a uniform draw: keep where u >= rate; the two layer keys from split(key, 3)."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    if not train or rate == 0:
        return x
    u = jax.random.uniform(key, x.shape)
    return jnp.where(u >= rate, x / (1.0 - rate), jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    _, k1, k2 = jax.random.split(key, 3)
    h = jnp.maximum(0.0, jnp.dot(x, params["layer1"]["w"]) + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jnp.maximum(0.0, jnp.dot(h, params["layer2"]["w"]) + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return jnp.dot(h, params["layer3"]["w"]) + params["layer3"]["b"]
