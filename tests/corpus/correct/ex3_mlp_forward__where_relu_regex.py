"""Layer numbers read with a regular expression, ReLU written with jnp.where."""

import re

import jax.numpy as jnp


def mlp_forward(params, x):
    order = sorted(params, key=lambda name: int(re.search(r"\d+", name).group()))
    h = x
    for position, name in enumerate(order, start=1):
        h = jnp.dot(h, params[name]["w"]) + params[name]["b"]
        if position != len(order):
            h = jnp.where(h > 0, h, 0.0)
    return h
