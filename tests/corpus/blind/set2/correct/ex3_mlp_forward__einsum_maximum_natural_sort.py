# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Natural sort by `(len(name), name)`, `jnp.einsum` for the matmul and `jnp.maximum(h, 0.0)` for ReLU.
# SHOULD-SAY: full marks
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params.keys(), key=lambda k: (len(k), k))
    h = x
    for i, name in enumerate(names):
        h = jnp.einsum("bi,io->bo", h, params[name]["w"]) + params[name]["b"]
        if i != len(names) - 1:
            h = jnp.maximum(h, 0.0)
    return h
