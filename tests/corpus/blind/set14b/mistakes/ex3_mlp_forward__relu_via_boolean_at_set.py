# BLIND-SET: 14
# EXERCISE: ex3
# WHAT: the hidden ReLU is a translation of PyTorch's in-place `h[h < 0] = 0` into `h = h.at[h < 0].set(0.0)`, which works eagerly but is boolean-mask indexing, which jax.jit cannot trace.
# SHOULD-SAY: Eagerly the forward pass is right at every depth and width (numeric layer order, ReLU after every layer but the last, params unmodified), but under jax.jit it raises NonConcreteBooleanIndexError: a boolean mask gives a data-dependent shape; write the ReLU as jax.nn.relu(h) or jnp.maximum(h, 0) (or jnp.where(h < 0, 0, h)).
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int(name[len("layer"):])


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = sorted(params, key=_layer_number)
    h = x
    for i, name in enumerate(names):
        h = h @ params[name]["w"] + params[name]["b"]
        if i < len(names) - 1:
            h = h.at[h < 0].set(0.0)  # ReLU, like h[h < 0] = 0 in torch
    return h
