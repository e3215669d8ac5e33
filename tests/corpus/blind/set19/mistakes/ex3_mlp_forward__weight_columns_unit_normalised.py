# BLIND-SET: 19
# EXERCISE: ex3
# WHAT: every weight matrix is divided by its column L2 norms (weight-normalisation) before the matmul
# SHOULD-SAY: The numeric layer order, the depth read from params, ReLU on hidden layers only and leaving params unmodified are right, but each layer computes x @ (w / ||w||_col) + b instead of x @ w + b; use the weights as given, without normalising them.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def _dense(layer, h):
    w = layer["w"]
    # weight norm: keep every output unit on the same scale
    w = w / jnp.linalg.norm(w, axis=0, keepdims=True)
    return h @ w + layer["b"]


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    depth = len(params)
    for i in range(1, depth + 1):
        x = _dense(params[f"layer{i}"], x)
        if i < depth:
            x = jax.nn.relu(x)
    return x
