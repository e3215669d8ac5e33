# BLIND-SET: 51
# EXERCISE: ex3
# WHAT: Correct. Defensive generic MLP: every key must match layer<digits>, the numbers must be exactly 1..N (otherwise ValueError), and layers are ordered by integer number. Each w and b is checked against the running width (b must be (w.shape[1],); a mismatch raises, it is never patched). ReLU goes after every layer but the one with number N. params is only read.
# SHOULD-SAY: Nothing to fix: numeric layer order for any depth (layer10 after layer9), ReLU on hidden layers only, no hard-coded depth, params untouched, and the same results under jit.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (defensive, correct)."""

import re

import jax
import jax.numpy as jnp

_LAYER_KEY = re.compile(r"^layer([0-9]+)$")


def _layers_by_number(params):
    if not isinstance(params, dict) or len(params) == 0:
        raise ValueError("params must be a non-empty dict of layers")
    by_number = {}
    for key in params:
        match = _LAYER_KEY.match(key)
        if match is None:
            raise ValueError(f"unexpected key {key!r}")
        by_number[int(match.group(1))] = key
    depth = len(by_number)
    if sorted(by_number) != list(range(1, depth + 1)):
        raise ValueError(f"layers must be numbered 1..{depth}, got {sorted(by_number)}")
    return [by_number[n] for n in range(1, depth + 1)]


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = _layers_by_number(params)
    h = jnp.asarray(x)
    if h.ndim != 2:
        raise ValueError(f"x must be (B, d0), got {h.shape}")
    last = len(names) - 1
    for position, name in enumerate(names):
        w, b = params[name]["w"], params[name]["b"]
        if w.ndim != 2 or w.shape[0] != h.shape[-1]:
            raise ValueError(f"{name}.w has shape {w.shape}, expected ({h.shape[-1]}, ...)")
        if b.shape != (w.shape[1],):
            raise ValueError(f"{name}.b has shape {b.shape}, expected ({w.shape[1]},)")
        h = jnp.matmul(h, w) + b
        if position < last:
            h = jnp.where(h > 0, h, 0.0)
    return h
