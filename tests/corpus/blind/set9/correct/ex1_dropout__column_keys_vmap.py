# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Splits the key once per column (last axis) and vmaps jax.random.bernoulli over the columns (out_axes=-1), so every element still gets its own independent coin; lax.select applies the mask.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout with one key per feature column."""

import jax
import jax.numpy as jnp


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    flat = x.reshape(1) if x.ndim == 0 else x
    column_keys = jax.random.split(key, flat.shape[-1])
    draw = lambda k: jax.random.bernoulli(k, keep, flat.shape[:-1])
    mask = jax.vmap(draw, out_axes=-1)(column_keys)
    out = jax.lax.select(mask, flat / keep, jnp.zeros_like(flat))
    return out.reshape(x.shape)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
