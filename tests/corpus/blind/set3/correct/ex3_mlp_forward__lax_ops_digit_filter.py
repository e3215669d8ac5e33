# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Gets the layer number by keeping the digits of each name (filter(str.isdigit, name)), and writes the layers with jax.lax.dot and jax.lax.max instead of @ and jax.nn.relu.
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP written with lax primitives."""

import jax
import jax.numpy as jnp
from jax import lax


def _layer_number(name):
    return int("".join(filter(str.isdigit, name)))


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    order = sorted(params.keys(), key=_layer_number)
    for position, name in enumerate(order):
        w, b = params[name]["w"], params[name]["b"]
        x = lax.dot(x, w) + b
        if position < len(order) - 1:
            x = lax.max(x, jnp.zeros_like(x))
    return x
