# BLIND-SET: 37
# EXERCISE: ex3
# WHAT: Correct rewrite: the numeric layer order is computed by an lru_cache'd helper keyed by the frozenset of layer names, and the forward pass is a jax.jit with that ordered name tuple as a static argument (params and x traced, nothing donated), so compiled programs are reused per architecture.
# SHOULD-SAY: Nothing to fix: layers taken in numeric order read off the params (layer10 after layer9), ReLU after every layer but the last, params untouched, same results under jax.jit.
"""Exercise 3: an MLP of any depth, compiled once per architecture."""

import functools
import re

import jax
import jax.numpy as jnp

_LAYER_NAME = re.compile(r"layer(\d+)")


@functools.lru_cache(maxsize=None)
def _layer_order(names):
    """Layer names sorted by their number; cached per set of names."""
    return tuple(sorted(names, key=lambda name: int(_LAYER_NAME.fullmatch(name).group(1))))


@functools.partial(jax.jit, static_argnames=("order",))
def _forward(params, x, order):
    *hidden, output = order
    for name in hidden:
        x = jnp.maximum(jnp.dot(x, params[name]["w"]) + params[name]["b"], 0.0)
    return jnp.dot(x, params[output]["w"]) + params[output]["b"]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    return _forward(params, x, order=_layer_order(frozenset(params)))
