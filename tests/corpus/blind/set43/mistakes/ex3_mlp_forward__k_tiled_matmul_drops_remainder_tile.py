# BLIND-SET: 43
# EXERCISE: ex3
# WHAT: every layer's matmul is accumulated in float32 over tiles of 64 input features, with n_tiles = d_in // 64, so when d_in > 64 is not a multiple of 64 the last d_in % 64 input features are never multiplied in (layers with d_in <= 64 take a plain matmul). With the lesson's 784-wide input, features 768..783 are ignored and the output is wrong; widths that are multiples of 64, or at most 64, give the right answer.
# SHOULD-SAY: the output ignores part of the input of some layers: the K-tiled matmul uses d_in // 64 whole tiles and drops the remainder tile. Loop over range(0, d_in, 64) slices (the last one shorter), or just use h @ w, which XLA already tiles.
"""Exercise 3: a generic MLP, with the matmuls tiled over the input features.

Each matmul is accumulated tile by tile in a float32 buffer, which bounds the
size of the partial products and fixes the summation order.
"""

import jax
import jax.numpy as jnp

_K_TILE = 64


def _matmul_k_tiled(h, w):
    """h @ w accumulated over tiles of the contraction axis, in float32."""
    d_in = h.shape[-1]
    if d_in <= _K_TILE:
        return jnp.matmul(h, w, preferred_element_type=jnp.float32)
    n_tiles = d_in // _K_TILE
    acc = jnp.zeros((h.shape[0], w.shape[-1]), dtype=jnp.float32)
    for t in range(n_tiles):
        lo, hi = t * _K_TILE, (t + 1) * _K_TILE
        acc = acc + jnp.matmul(h[:, lo:hi], w[lo:hi, :], preferred_element_type=jnp.float32)
    return acc


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth: ReLU after every layer but the last."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    h = jnp.asarray(x, dtype=jnp.float32)
    for i, name in enumerate(names):
        z = _matmul_k_tiled(h, params[name]["w"]) + params[name]["b"]
        h = z if i == len(names) - 1 else jax.nn.relu(z)
    return h
