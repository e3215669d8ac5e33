# BLIND-SET: 30
# EXERCISE: ex3
# WHAT: correct rewrite: layer names are ordered by the integer captured with re.fullmatch(r"layer(\d+)"), each layer becomes a closure (ReLU as jnp.maximum on all but the last), and the closures are folded left to right with functools.reduce into one function (lambda h: g(f(h))), so layer1 runs first.
# SHOULD-SAY: Nothing to fix: any depth, numeric layer order whatever the dict order, ReLU on hidden layers only, params untouched.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import functools
import re
from typing import Callable

import jax
import jax.numpy as jnp

Fn = Callable[[jax.Array], jax.Array]


def _layer_index(name: str) -> int:
    return int(re.fullmatch(r"layer(\d+)", name).group(1))


def _make_layer(layer: dict, hidden: bool) -> Fn:
    def apply(h: jax.Array) -> jax.Array:
        out = jnp.dot(h, layer["w"]) + layer["b"]
        return jnp.maximum(out, 0.0) if hidden else out

    return apply


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=_layer_index)
    depth = len(names)
    layers = [_make_layer(params[name], hidden=i + 1 < depth) for i, name in enumerate(names)]
    # Left-to-right composition: (f then g) for consecutive layers.
    network = functools.reduce(lambda f, g: lambda h: g(f(h)), layers)
    return network(x)
