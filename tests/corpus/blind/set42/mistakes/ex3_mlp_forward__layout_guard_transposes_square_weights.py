# BLIND-SET: 42
# EXERCISE: ex3
# WHAT: A "layout guard" transposes w whenever w.shape[1] == h.shape[-1] (meant to catch PyTorch-style (out, in) weights). For valid params it fires exactly on square layers, so every layer with equal input and output width uses w.T; models with equal widths (and any square layer inside an unequal one) give wrong outputs, while models with no square layer are right.
# SHOULD-SAY: Square weight matrices get transposed: the guard tests `w.shape[1] == h.shape[-1]`, which is true for every square (d, d) layer, so those layers compute h @ w.T. The lesson's params are always (in, out); remove the guard (or only transpose when w.shape[0] != h.shape[-1], which never happens here).
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp

Array = jax.Array

_LAYER_RE = re.compile(r"^layer(\d+)$")


def _layer_number(name: str) -> int:
    match = _LAYER_RE.match(name)
    if match is None:
        raise KeyError(f"unexpected entry {name!r} in params; expected 'layer<N>'")
    return int(match.group(1))


def _weight_for(h: Array, w: Array) -> Array:
    """Return w in (in, out) layout for input h.

    Weights exported from PyTorch are stored as (out, in); if the second
    dimension matches the incoming features, the matrix is in that layout.
    """
    if w.shape[1] == h.shape[-1]:
        return w.T
    return w


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth, layers applied in numeric order."""
    names = sorted(params, key=_layer_number)
    h = x
    for i, name in enumerate(names):
        layer = params[name]
        w = _weight_for(h, layer["w"])
        h = h @ w + layer["b"]
        if i < len(names) - 1:  # no activation on the output layer
            h = jax.nn.relu(h)
    return h
