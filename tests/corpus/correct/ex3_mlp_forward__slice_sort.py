"""Layers sorted by int(name[5:]); the activation decided by the loop index."""

import jax.numpy as jnp


def mlp_forward(params, x):
    names = sorted(params, key=lambda k: int(k[5:]))
    h = x
    for i, name in enumerate(names):
        h = jnp.dot(h, params[name]["w"]) + params[name]["b"]
        if i != len(names) - 1:
            h = jnp.maximum(h, 0)
    return h
