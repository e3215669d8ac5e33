# BLIND-SET: 51
# EXERCISE: ex3
# WHAT: The layer-number parser validates 1 <= n < len(params) (it should be <= len(params)), so the last layer always "fails" validation and the code falls back to sorted(params), a string sort. With up to 9 layers string order equals numeric order and the output matches the reference. With 10 or more layers (e.g. 12) the order is layer1, layer10, layer11, layer12, layer2, ..., which gives the wrong output or a shape error.
# SHOULD-SAY: Layers must run in numeric order for every depth. The range check on the layer number is off by one (the last layer, n == N, is valid), so it always falls back to a string sort that puts layer10 after layer1. Fix the bound to 1 <= n <= N, and let a failed validation raise instead of silently sorting as strings.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (defensive)."""

import re

import jax
import jax.numpy as jnp

_NAME = re.compile(r"layer(\d+)")


def _layer_number(name, depth):
    match = _NAME.fullmatch(name)
    if match is None:
        raise ValueError(f"unexpected layer name {name!r}")
    number = int(match.group(1))
    if not 1 <= number < depth:
        raise ValueError(f"layer number {number} outside 1..{depth}")
    return number


def _ordered_names(params):
    depth = len(params)
    try:
        return sorted(params, key=lambda name: _layer_number(name, depth))
    except ValueError:
        # Names we could not validate: fall back to a plain deterministic order.
        return sorted(params)


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    if not isinstance(params, dict) or not params:
        raise ValueError("params must be a non-empty dict of layers")
    x = jnp.asarray(x, dtype=jnp.float32)
    if x.ndim != 2:
        raise ValueError(f"x must be (B, d0), got shape {x.shape}")
    names = _ordered_names(params)
    h = x
    for i, name in enumerate(names):
        layer = params[name]
        w = jnp.asarray(layer["w"], dtype=jnp.float32)
        b = jnp.asarray(layer["b"], dtype=jnp.float32).reshape(-1)
        h = h @ w + b
        if i < len(names) - 1:
            h = jax.nn.relu(h)
    return h
