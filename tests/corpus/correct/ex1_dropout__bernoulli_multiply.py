"""Dropout as a float mask times x over keep; one key per layer with fold_in."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape).astype(x.dtype)
    return mask * x / keep


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    names = ["layer1", "layer2", "layer3"]
    h = x
    for i, name in enumerate(names):
        h = h @ params[name]["w"] + params[name]["b"]
        if i < len(names) - 1:
            h = jax.nn.relu(h)
            h = dropout(jax.random.fold_in(key, i), h, rate, train)
    return h
