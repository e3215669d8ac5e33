"""Dropout jitted with rate and train static; the forward pass jitted too, keys split in a loop."""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("rate", "train"))
def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), x / keep, 0.0)


@functools.partial(jax.jit, static_argnames=("rate", "train"))
def forward_with_dropout(params, x, key, rate=0.5, train=True):
    n_layers = len(params)
    keys = jax.random.split(key, n_layers - 1)
    h = x
    for i in range(1, n_layers + 1):
        layer = params[f"layer{i}"]
        h = h @ layer["w"] + layer["b"]
        if i < n_layers:
            h = dropout(keys[i - 1], jax.nn.relu(h), rate, train)
    return h
