# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: functools.reduce over a sorted list of layer dicts, then the output layer; lax.max for ReLU.
# SHOULD-SAY: full marks
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import functools

import jax
from jax import lax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    layers = [params[k] for k in sorted(params, key=lambda k: int(k[len("layer"):]))]
    *hidden, last = layers

    def dense_relu(h, layer):
        z = h @ layer["w"] + layer["b"]
        return lax.max(z, jnp.zeros_like(z))

    h = functools.reduce(dense_relu, hidden, x)
    return h @ last["w"] + last["b"]
