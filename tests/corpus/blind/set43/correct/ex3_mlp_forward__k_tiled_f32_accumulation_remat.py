# BLIND-SET: 43
# EXERCISE: ex3
# WHAT: correct. Layers are taken in numeric order from the params; each matmul is accumulated in float32 over tiles of 64 input features with range(0, d_in, 64) slices (the last tile shorter, so nothing is dropped), each layer is wrapped in jax.checkpoint to save activation memory, and ReLU is jnp.maximum(z, 0) on every layer but the last. Only the summation order differs from the reference (agreement to ~1e-6).
# SHOULD-SAY: nothing to fix: full marks.
"""Exercise 3: a generic MLP with K-tiled float32 accumulation and remat."""

import functools
import re

import jax
import jax.numpy as jnp

_K_TILE = 64


def _layer_index(name):
    match = re.fullmatch(r"layer(\d+)", name)
    if match is None:
        raise ValueError(f"unexpected layer name {name!r}")
    return int(match.group(1))


def _matmul_k_tiled(h, w):
    """h @ w summed over tiles of the contraction axis into a float32 accumulator."""
    d_in = h.shape[-1]
    acc = jnp.zeros((h.shape[0], w.shape[-1]), dtype=jnp.float32)
    for lo in range(0, d_in, _K_TILE):
        hi = min(lo + _K_TILE, d_in)
        acc = acc + jnp.matmul(h[:, lo:hi], w[lo:hi, :], preferred_element_type=jnp.float32)
    return acc


@functools.partial(jax.checkpoint, static_argnums=(3,))
def _layer(h, w, b, apply_relu):
    z = _matmul_k_tiled(h, w) + jnp.asarray(b, jnp.float32)[None, :]
    return jnp.maximum(z, 0.0) if apply_relu else z


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth: ReLU after every layer but the last."""
    names = sorted(params, key=_layer_index)
    h = jnp.asarray(x, dtype=jnp.float32)
    for i, name in enumerate(names):
        layer = params[name]
        h = _layer(h, jnp.asarray(layer["w"], jnp.float32), layer["b"], i < len(names) - 1)
    return h
