# BLIND-SET: 19
# EXERCISE: ex3
# WHAT: builds a new {int: layer} mapping from the names, walks range(1, max+1), computes each layer with einsum and applies ReLU via jnp.where on all but the last
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    by_index = {int(name.replace("layer", "", 1)): layer for name, layer in params.items()}
    depth = max(by_index)
    h = x
    for i in range(1, depth + 1):
        layer = by_index[i]
        h = jnp.einsum("bi,io->bo", h, layer["w"]) + layer["b"]
        if i != depth:
            h = jnp.where(h > 0, h, jnp.zeros_like(h))
    return h
