# BLIND-SET: 20
# EXERCISE: ex3
# WHAT: correct: collects (layer number, leaf name) -> array from jax.tree_util.tree_flatten_with_path into integer-keyed buckets, walks them in sorted numeric order with lax.dot_general and jnp.maximum, skipping the activation on the last position
# SHOULD-SAY: full marks: depth and numeric layer order (layer10 after layer9) come from the params pytree, ReLU follows every layer but the last, biases are added, params is not modified, and it agrees under jax.jit at every depth and width

"""Exercise 3: a generic MLP from the flattened params paths."""

import collections

import jax
import jax.numpy as jnp
from jax import lax


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth, layers in numeric order."""
    buckets = collections.defaultdict(dict)
    for path, leaf in jax.tree_util.tree_flatten_with_path(params)[0]:
        layer_name, leaf_name = path[0].key, path[1].key
        buckets[int(layer_name[len("layer"):])][leaf_name] = leaf

    order = sorted(buckets)
    h = x
    for position, number in enumerate(order):
        w, b = buckets[number]["w"], buckets[number]["b"]
        h = lax.dot_general(h, w, (((h.ndim - 1,), (0,)), ((), ()))) + b
        if position < len(order) - 1:
            h = jnp.maximum(h, 0.0)
    return h
