# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Places each layer into a pre-sized list slot at index int(name[5:]) - 1, multiplies with jax.lax.dot_general, and applies ReLU as jnp.clip(z, min=0.0).
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP built from a slot list and lax.dot_general."""

import jax
import jax.numpy as jnp


def _dense(layer, h):
    z = jax.lax.dot_general(h, layer["w"], dimension_numbers=(((1,), (0,)), ((), ())))
    return z + layer["b"]


def mlp_forward(params, x):
    ordered = [None] * len(params)
    for name, layer in params.items():
        ordered[int(name[len("layer"):]) - 1] = layer
    *hidden, output = ordered
    for layer in hidden:
        x = jnp.clip(_dense(layer, x), min=0.0)
    return _dense(output, x)
