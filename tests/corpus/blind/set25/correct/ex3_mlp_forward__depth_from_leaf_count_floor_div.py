# BLIND-SET: 25
# EXERCISE: ex3
# WHAT: correct rewrite: the depth is len(jax.tree_util.tree_leaves(params)) // 2 (two leaves per layer), the layers are visited as f"layer{i}" for i in range(1, depth + 1) with jnp.dot, and jnp.maximum(h, 0.0) is applied when i < depth.
# SHOULD-SAY: nothing to fix: numeric layer order, ReLU on every layer but the last, any depth, params untouched, same under jit.
"""Exercise 3: an MLP whose depth is counted from the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers layer1..layerN in numeric order."""
    depth = len(jax.tree_util.tree_leaves(params)) // 2  # a "w" and a "b" per layer
    h = x
    for i in range(1, depth + 1):
        layer = params[f"layer{i}"]
        h = jnp.dot(h, layer["w"]) + layer["b"]
        if i < depth:
            h = jnp.maximum(h, 0.0)
    return h
