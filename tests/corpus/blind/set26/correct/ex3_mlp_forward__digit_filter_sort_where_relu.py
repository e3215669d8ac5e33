# BLIND-SET: 26
# EXERCISE: ex3
# WHAT: correct rewrite: layer order from the digits of each name (int of the characters that are digits), the layers run in one loop with jnp.dot, and ReLU written as jnp.where(h > 0, h, 0) applied while the layer's position is before the last.
# SHOULD-SAY: nothing to fix: any depth N >= 1 in numeric order (layer10 after layer9), equal or unequal widths, ReLU after every layer but the last, params untouched, jit-safe.
"""Exercise 3: a generic MLP; depth and order read from the names of the params."""

import jax.numpy as jnp


def _layer_number(name):
    return int("".join(ch for ch in name if ch.isdigit()))


def mlp_forward(params, x):
    """x through layer1..layerN in numeric order, ReLU after all but the last."""
    order = sorted(params.keys(), key=_layer_number)
    depth = len(order)
    h = x
    for position, name in enumerate(order):
        h = jnp.dot(h, params[name]["w"]) + params[name]["b"]
        if position < depth - 1:
            h = jnp.where(h > 0, h, 0.0)
    return h
