# BLIND-SET: 42
# EXERCISE: ex3
# WHAT: To use the bias trick without rebuilding matrices, each layer's augmented matrix [w; b] is cached with layer.setdefault("wb", ...) inside the caller's params dicts. The outputs of the first call are right, but params is modified (every layer dict gains a "wb" leaf), and a later call after params["layerK"]["w"] is replaced in the same dict reuses the stale cached "wb".
# SHOULD-SAY: mlp_forward modifies params: setdefault writes a new "wb" entry into every layer dict (so the pytree now has 3N leaves), and later calls read that cached matrix even if "w" or "b" changed. Build the augmented matrix in a local variable (or just compute h @ w + b) and never write into params.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

from __future__ import annotations

import jax
import jax.numpy as jnp

Array = jax.Array


def _natural_key(name: str) -> int:
    digits = "".join(ch for ch in name if ch.isdigit())
    return int(digits) if digits else 0


def _augmented(layer: dict) -> Array:
    """[w; b] so that [h, 1] @ [w; b] == h @ w + b (computed once per layer)."""
    return layer.setdefault("wb", jnp.concatenate([layer["w"], layer["b"][None, :]], axis=0))


def mlp_forward(params, x):
    """MLP of any depth with the bias folded into an augmented weight matrix."""
    names = sorted(params, key=_natural_key)
    h = x
    for i, name in enumerate(names):
        wb = _augmented(params[name])
        ones = jnp.ones((h.shape[0], 1), dtype=h.dtype)
        h = jnp.concatenate([h, ones], axis=1) @ wb
        if i != len(names) - 1:
            h = jax.nn.relu(h)
    return h
