# BLIND-SET: 39
# EXERCISE: ex3
# WHAT: The layer names are sorted numerically into a new dict, then jax.tree_util.tree_transpose regroups it into {"w": {...}, "b": {...}} and the weights and biases are read back with jax.tree_util.tree_leaves, which re-sorts dict keys as strings. For N <= 9 the result is right; from 10 layers on the layers run layer1, layer10, layer11, layer12, layer2, ... (a shape error with unequal widths, wrong values with equal widths).
# SHOULD-SAY: With 10 or more layers your layers run in string order (layer1, layer10, layer11, ..., layer2): you sort the names numerically, but tree_transpose and tree_leaves flatten dicts by sorted key strings, so the order you built is lost. Iterate over your numerically sorted list of names (or keep the layers in a list/tuple, whose order pytrees preserve) instead of reading them back out of a dict's leaves.
"""Exercise 3: a generic MLP; weights and biases regrouped with tree_transpose."""

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int(name.removeprefix("layer"))


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    ordered = {name: params[name] for name in sorted(params, key=_layer_number)}
    outer = jax.tree_util.tree_structure({name: 0 for name in ordered})
    inner = jax.tree_util.tree_structure({"w": 0, "b": 0})
    by_kind = jax.tree_util.tree_transpose(outer, inner, ordered)
    ws = jax.tree_util.tree_leaves(by_kind["w"])
    bs = jax.tree_util.tree_leaves(by_kind["b"])
    n = len(ws)
    for i, (w, b) in enumerate(zip(ws, bs)):
        x = x @ w + b
        if i < n - 1:
            x = jax.nn.relu(x)
    return x
