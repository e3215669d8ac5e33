# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: jax.tree.map with an is_leaf predicate turns each layer dict into a (w, b) pair without touching params, the layer names are sorted by their integer suffix, and ReLU is applied after every layer whose position is before the last.
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP; (w, b) pairs pulled out with tree.map(is_leaf=...)."""

import jax
import jax.numpy as jnp


def _is_layer(node):
    return isinstance(node, dict) and "w" in node and "b" in node


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth, layers in numeric order."""
    pairs = jax.tree.map(lambda layer: (layer["w"], layer["b"]), params, is_leaf=_is_layer)
    order = sorted(pairs, key=lambda name: int(name[len("layer"):]))
    depth = len(order)
    for position, name in enumerate(order):
        w, b = pairs[name]
        x = x @ w + b
        if position < depth - 1:
            x = jax.nn.relu(x)
    return x
