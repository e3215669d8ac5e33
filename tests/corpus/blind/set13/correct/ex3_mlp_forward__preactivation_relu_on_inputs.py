# BLIND-SET: 13
# EXERCISE: ex3
# WHAT: Applies the ReLU lazily at the start of every layer except the first (pre-activation style), with einsum matmuls and layer order from a numeric sort key built with str.removeprefix.
# SHOULD-SAY: Everything is correct: layers run in numeric order (layer10 after layer9) at any depth N >= 1, ReLU after every layer but the last (none on the output), depth read from params, params unmodified, and jit agrees.
"""Exercise 3 (variant): an MLP of any depth with the ReLU applied on each layer's input."""

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int(name.removeprefix("layer"))


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    h = x
    for depth, name in enumerate(sorted(params, key=_layer_number)):
        if depth:  # the previous layer was a hidden one: activate its output now
            h = jax.nn.relu(h)
        h = jnp.einsum("bi,io->bo", h, params[name]["w"]) + params[name]["b"]
    return h
