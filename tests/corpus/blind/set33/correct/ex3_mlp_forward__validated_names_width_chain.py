# BLIND-SET: 33
# EXERCISE: ex3
# WHAT: correct rewrite: every key validated with a full-match regex and mapped to its integer, layers run in integer order with a width check before each product, ReLU via jnp.maximum on all but the last.
# SHOULD-SAY: nothing to fix: any depth, numeric layer order, ReLU placement and params left untouched, also under jit.
"""Exercise 3: an MLP of any depth, read off the params pytree (validated names)."""

import re

import jax.numpy as jnp

_LAYER_NAME = re.compile(r"layer(\d+)")


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    if not params:
        raise ValueError("params has no layers")
    by_number = {}
    for name in params:
        match = _LAYER_NAME.fullmatch(name)
        if match is None:
            raise KeyError(f"unexpected layer name {name!r}")
        by_number[int(match.group(1))] = name
    order = [by_number[i] for i in sorted(by_number)]
    h = jnp.asarray(x)
    last = len(order) - 1
    for i, name in enumerate(order):
        w, b = params[name]["w"], params[name]["b"]
        if h.shape[-1] != w.shape[0]:
            raise ValueError(f"{name}: input width {h.shape[-1]} does not match w {w.shape}")
        h = jnp.dot(h, w) + b
        if i < last:
            h = jnp.maximum(h, 0.0)
    return h
