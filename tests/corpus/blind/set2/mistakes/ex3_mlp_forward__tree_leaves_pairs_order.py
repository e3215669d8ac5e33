# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: I paired up `jax.tree.leaves(params)` two at a time as (b, w) per layer, but tree.leaves orders dict keys as strings, so with 12 layers layer10 comes after layer1.
# SHOULD-SAY: layer order from tree.leaves is string order (layer10 after layer1)
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    leaves = jax.tree.leaves(params)  # per layer: "b" then "w"
    layers = list(zip(leaves[1::2], leaves[0::2]))  # (w, b)
    for w, b in layers[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = layers[-1]
    return x @ w + b
