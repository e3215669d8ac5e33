# BLIND-SET: 54
# EXERCISE: ex3
# WHAT: The layer order comes from a table precomputed at import for depths 1..9 (["layer1", ..., "layerN"]); deeper models fall back to sorted(params), which sorts names as strings. Up to 9 layers the output is right; with 10 or more layers, layer10, layer11, ... run straight after layer1 (layer1, layer10, layer11, layer12, layer2, ...), so equal-width deep models give wrong outputs (and unequal widths raise a shape error) and ReLU is skipped after layer9 instead of after the true last layer.
# SHOULD-SAY: Your precomputed order table only covers up to 9 layers, and the fallback sorts names as text, which puts layer10 right after layer1. Sort by the number in the name (int(name[5:])) for every depth, or build the table entry for N on demand.
"""Exercise 3: a generic MLP; layer orders precomputed once."""

import jax
import jax.numpy as jnp

# orders for every depth we use in the course, computed once
_MAX_TABLE_DEPTH = 9
_ORDER_TABLE = {n: tuple(f"layer{i}" for i in range(1, n + 1)) for n in range(1, _MAX_TABLE_DEPTH + 1)}


def _layer_order(params):
    order = _ORDER_TABLE.get(len(params))
    if order is None or set(order) != set(params):
        order = tuple(sorted(params))
    return order


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    order = _layer_order(params)
    *hidden, last = order
    h = x
    for name in hidden:
        layer = params[name]
        h = jnp.maximum(h @ layer["w"] + layer["b"], 0.0)
    return h @ params[last]["w"] + params[last]["b"]
