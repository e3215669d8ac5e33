# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: layer order is built by bisect.insort of (number, name) pairs; hidden activations use jnp.fmax(h, 0).
# SHOULD-SAY: full marks
"""Exercise 3: an MLP of any depth, ordered by binary insertion."""

import bisect

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    order = []
    for name in params:
        bisect.insort(order, (int(name[len("layer"):]), name))
    *hidden, (_, last) = order
    for _, name in hidden:
        layer = params[name]
        x = jnp.fmax(x @ layer["w"] + layer["b"], 0.0)
    return x @ params[last]["w"] + params[last]["b"]
