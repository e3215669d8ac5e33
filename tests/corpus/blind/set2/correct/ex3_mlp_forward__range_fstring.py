# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: `n = len(params)` and a loop over `params[f'layer{i}']` for i in 1..n, ReLU when i < n.
# SHOULD-SAY: full marks
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    n = len(params)
    for i in range(1, n + 1):
        layer = params[f"layer{i}"]
        x = x @ layer["w"] + layer["b"]
        if i < n:
            x = jax.nn.relu(x)
    return x
