# BLIND-SET: 15
# EXERCISE: ex3
# WHAT: mlp_forward orders layers by the integer made of the digits in each name, walks them with itertools.pairwise over names + [None] to know whether a next layer follows, and writes ReLU as jnp.clip(z, 0).
# SHOULD-SAY: All ex3 checks pass: agrees with the reference at every depth (1, 2, 3, 5, 12) with equal and unequal widths, layer10 comes after layer9, ReLU after every layer but the last, nothing hard-coded, params left unmodified, and results agree under jax.jit.
"""Exercise 3: an MLP of any depth, read off the params pytree."""

import itertools

import jax.numpy as jnp


def _layer_number(name):
    return int("".join(ch for ch in name if ch.isdigit()))


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=_layer_number)
    h = x
    for name, following in itertools.pairwise(names + [None]):
        z = jnp.matmul(h, params[name]["w"]) + params[name]["b"]
        h = z if following is None else jnp.clip(z, 0)
    return h
