# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Walks layer1, layer2, ... with a while loop for as long as f"layer{i}" is in params, applying ReLU only when a next layer exists.
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP that walks the layers by name."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    i = 1
    while f"layer{i}" in params:
        layer = params[f"layer{i}"]
        x = jnp.matmul(x, layer["w"]) + layer["b"]
        if f"layer{i + 1}" in params:
            x = jax.nn.relu(x)
        i += 1
    return x
