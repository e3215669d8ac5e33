# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: layer numbers are parsed by deleting letters with str.translate; each layer is jnp.inner(x, w.T) + b, with jnp.clip(h, 0, None) as the ReLU on all but the last.
# SHOULD-SAY: full marks
"""Exercise 3: an MLP of any depth; names parsed with str.translate."""

import string

import jax
import jax.numpy as jnp

_DROP_LETTERS = str.maketrans("", "", string.ascii_letters)


def _layer_number(name):
    return int(name.translate(_DROP_LETTERS))


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params.keys(), key=_layer_number)
    depth = len(names)
    for position, name in enumerate(names, start=1):
        w, b = params[name]["w"], params[name]["b"]
        x = jnp.inner(x, w.T) + b
        if position < depth:
            x = jnp.clip(x, 0.0, None)
    return x
