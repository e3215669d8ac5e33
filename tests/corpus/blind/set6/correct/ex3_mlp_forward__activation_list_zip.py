# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Depth is len(jax.tree.leaves(params)) // 2 (every layer holds exactly w and b), the names are rebuilt as layer1..layerN, and an explicit list of activations ([relu] * (N-1) + [identity]) is zipped with them.
# SHOULD-SAY: full marks
"""Exercise 3: an MLP of any depth, read off the params pytree (activation list)."""

import jax
import jax.numpy as jnp


def _identity(z):
    return z


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    depth = len(jax.tree.leaves(params)) // 2  # each layer contributes a w and a b
    names = [f"layer{i}" for i in range(1, depth + 1)]
    activations = [jax.nn.relu] * (depth - 1) + [_identity]
    for name, activation in zip(names, activations):
        x = activation(jnp.dot(x, params[name]["w"]) + params[name]["b"])
    return x
