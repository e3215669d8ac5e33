# BLIND-SET: 24
# EXERCISE: ex3
# WHAT: correct rewrite: the layers are put in numeric order into a collections.OrderedDict, whose pytree flattening keeps insertion order (unlike a plain dict, whose keys are sorted as strings); jax.tree.leaves then yields (b, w) per layer in layer order, consumed two at a time; ReLU goes before every layer but the first, which is the same as after every layer but the last.
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP driven by an OrderedDict pytree."""

import collections

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int(name[len("layer"):])


def mlp_forward(params, x):
    """Layers layer1..layerN in numeric order, ReLU between layers, none on the output."""
    ordered = collections.OrderedDict((name, params[name]) for name in sorted(params, key=_layer_number))
    leaves = jax.tree.leaves(ordered)  # OrderedDict keeps insertion order; each layer gives b, then w
    biases, weights = leaves[0::2], leaves[1::2]
    h = x
    for depth, (w, b) in enumerate(zip(weights, biases)):
        if depth > 0:
            h = jnp.maximum(h, 0.0)
        h = jnp.matmul(h, w) + b
    return h
