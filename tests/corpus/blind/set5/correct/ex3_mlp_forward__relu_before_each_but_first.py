# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: written in "pre-activation" order: the loop applies ReLU to its input before every layer except the first, then the affine map with jnp.dot, which is the same as ReLU after every layer but the last.
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP, ReLU applied on the way into layers 2..N."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth, layers in numeric order."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    h = x
    for i, name in enumerate(names):
        if i > 0:
            h = jax.nn.relu(h)
        h = jnp.dot(h, params[name]["w"]) + params[name]["b"]
    return h
