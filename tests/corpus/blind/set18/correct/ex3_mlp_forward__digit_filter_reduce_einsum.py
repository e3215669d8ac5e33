# BLIND-SET: 18
# EXERCISE: ex3
# WHAT: layer numbers are read by keeping the digit characters of each key; the (w, b) pairs are put in that order and folded with functools.reduce, each step an einsum plus bias, with ReLU chosen by a per-layer flag (jnp.clip at 0 for hidden layers, identity for the last).
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import functools

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def _index(name):
    return int("".join(ch for ch in name if ch.isdigit()))


def _dense(h, layer):
    (w, b), is_hidden = layer
    z = jnp.einsum("bi,io->bo", h, w) + b
    return jnp.clip(z, 0.0) if is_hidden else z


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    ordered = [(params[k]["w"], params[k]["b"]) for k in sorted(params, key=_index)]
    flags = [True] * (len(ordered) - 1) + [False]
    return functools.reduce(_dense, zip(ordered, flags), x)
