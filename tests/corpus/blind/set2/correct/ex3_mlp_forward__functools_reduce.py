# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Hidden layers applied with `functools.reduce` over a numerically sorted list of layer dicts.
# SHOULD-SAY: full marks
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import functools

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    layers = [params[k] for k in sorted(params, key=lambda k: int(k[len("layer"):]))]

    def dense_relu(h, layer):
        return jax.nn.relu(jnp.dot(h, layer["w"]) + layer["b"])

    h = functools.reduce(dense_relu, layers[:-1], x)
    return jnp.dot(h, layers[-1]["w"]) + layers[-1]["b"]
