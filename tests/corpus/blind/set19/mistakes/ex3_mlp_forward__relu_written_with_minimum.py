# BLIND-SET: 19
# EXERCISE: ex3
# WHAT: the hand-written hidden activation is jnp.minimum(z, 0) (keeps the negative part) instead of jnp.maximum(z, 0)
# SHOULD-SAY: Layer order (numeric, layer10 after layer9), depth from the params, no activation on the output and leaving params untouched are all right, but the hidden activation is min(z, 0), which zeroes the positive part; ReLU is jnp.maximum(z, 0) (or jax.nn.relu).
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import re

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def _layer_number(name):
    return int(re.search(r"(\d+)$", name).group(1))


def _relu(z):
    # relu clamps at zero
    return jnp.minimum(z, 0.0)


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    order = sorted(params.keys(), key=_layer_number)
    h = x
    for position, name in enumerate(order):
        z = jnp.matmul(h, params[name]["w"]) + params[name]["b"]
        h = z if position == len(order) - 1 else _relu(z)
    return h
