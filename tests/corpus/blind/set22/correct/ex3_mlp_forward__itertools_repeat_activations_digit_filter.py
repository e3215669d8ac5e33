# BLIND-SET: 22
# EXERCISE: ex3
# WHAT: correct variant: layers ordered by the integer made of the digits in each name (filter(str.isdigit, ...)), activations built as itertools.chain(repeat(relu, N-1), [identity]) and folded with functools.reduce over zip(layers, activations) using jnp.dot.
# SHOULD-SAY: full marks: layers run in numeric order (layer10 after layer9) at any depth including 1, ReLU after every layer but the last, nothing hard-coded, params untouched, same results under jit.
"""Exercise 3: an MLP of any depth as a fold over (layer, activation) pairs."""

import functools
import itertools

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int("".join(filter(str.isdigit, name)))


def _identity(z):
    return z


def mlp_forward(params, x):
    """x through layer1..layerN in numeric order, ReLU between layers."""
    layers = [params[name] for name in sorted(params, key=_layer_number)]
    activations = itertools.chain(itertools.repeat(jax.nn.relu, len(layers) - 1), (_identity,))
    return functools.reduce(
        lambda h, pair: pair[1](jnp.dot(h, pair[0]["w"]) + pair[0]["b"]),
        zip(layers, activations),
        x,
    )
