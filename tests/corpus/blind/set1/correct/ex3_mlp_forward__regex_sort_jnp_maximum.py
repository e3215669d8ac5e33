# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Natural sort by regex digits; jnp.maximum(0, .) and jnp.dot instead of jax.nn.relu and @.
# SHOULD-SAY: full marks
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import re

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params.keys(), key=lambda k: int(re.search(r"\d+", k).group()))
    for name in names[:-1]:
        x = jnp.maximum(0.0, jnp.dot(x, params[name]["w"]) + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
