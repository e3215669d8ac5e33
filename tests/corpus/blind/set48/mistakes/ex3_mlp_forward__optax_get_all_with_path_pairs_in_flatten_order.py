# BLIND-SET: 48
# EXERCISE: ex3
# WHAT: The layers are read with optax.tree.get_all_with_path(params, "w") and (params, "b") and applied in the order those lists come back, which is JAX's flatten order: dict keys sorted as strings. Up to 9 layers this is numeric order; with 10 or more layers layer10, layer11, ... are applied right after layer1 (a shape error with unequal widths, silently wrong outputs with equal widths). The ReLU is skipped on the last layer of that wrong order.
# SHOULD-SAY: Layers must run in numeric order layer1, layer2, ..., layer10: pytree flattening sorts dict keys as strings, so layer10 comes after layer1. Sort the (path, leaf) pairs by the integer in the layer name (e.g. int(path[0].key.removeprefix("layer"))) before applying them.
"""Exercise 3: a generic MLP that reads its layers with optax.tree helpers."""

import jax
import jax.numpy as jnp
import optax


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    weights = optax.tree.get_all_with_path(params, "w")
    biases = optax.tree.get_all_with_path(params, "b")
    depth = len(weights)
    h = x
    for i, ((w_path, w), (b_path, b)) in enumerate(zip(weights, biases), start=1):
        assert w_path[0] == b_path[0], "weight and bias of different layers"
        h = jnp.vecmat(h, w) + b
        if i < depth:
            h = jax.nn.relu(h)
    return h
