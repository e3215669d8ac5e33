# BLIND-SET: 42
# EXERCISE: ex3
# WHAT: Correct. Layers are ordered with a natural-sort key (re.split(r"(\d+)") with the digit runs turned into ints, so layer10 follows layer9); a layout guard transposes w only when w.shape[0] != h.shape[-1] and w.shape[1] == h.shape[-1], which never happens for valid (in, out) params (square layers included); ReLU is jnp.maximum(z, 0) on every layer but the last; params is only read.
# SHOULD-SAY: Nothing to fix: the layers run in numeric order for any depth and any listing order, ReLU follows every layer but the last, params is not modified, and the results agree under jax.jit.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp

Array = jax.Array


def _natural_key(name: str) -> list:
    """'layer10' -> ['layer', 10, ''] so that numbers compare as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _as_in_out(w: Array, in_features: int) -> Array:
    """Defensive: accept an (out, in) matrix if (and only if) (in, out) cannot fit."""
    if w.shape[0] != in_features and w.shape[1] == in_features:
        return w.T
    return w


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth; layers applied as layer1, layer2, ..."""
    names = sorted(params, key=_natural_key)
    if not names:
        raise ValueError("params has no layers")
    h = x
    last = len(names) - 1
    for i, name in enumerate(names):
        layer = params[name]
        w = _as_in_out(layer["w"], h.shape[-1])
        z = h @ w + layer["b"]
        h = z if i == last else jnp.maximum(z, 0.0)
    return h
