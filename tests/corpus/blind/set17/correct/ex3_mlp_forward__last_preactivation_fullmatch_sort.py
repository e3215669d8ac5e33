# BLIND-SET: 17
# EXERCISE: ex3
# WHAT: layers are ordered by the integer captured with re.fullmatch, every layer's pre-activation is computed with jnp.add(jnp.matmul(...)) and ReLU'd into the next input, and the function returns the last pre-activation (so the output is never ReLU'd) instead of special-casing the last layer
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import re

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def _index(name):
    match = re.fullmatch(r"layer(?P<n>[0-9]+)", name)
    return int(match.group("n"))


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    activation = x
    pre_activation = x
    for name in sorted(params, key=_index):
        pre_activation = jnp.add(jnp.matmul(activation, params[name]["w"]), params[name]["b"])
        activation = jax.nn.relu(pre_activation)
    return pre_activation
