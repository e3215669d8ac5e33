# BLIND-SET: 44
# EXERCISE: ex3
# WHAT: mlp_forward builds an (out, in) copy of every weight with jax.tree.map(lambda a: a.reshape(a.shape[::-1]), params) and contracts it with jnp.einsum("oi,bi->bo"). A reshape is not a transpose, so every (in, out) weight is scrambled. The output has the right shape but wrong values whenever a layer has in > 1 and out > 1; it is only right when every weight has a dimension of 1. Biases (1-D) are untouched, and params is not modified.
# SHOULD-SAY: The layer weights are scrambled: reshaping a (in, out) matrix to (out, in) keeps the memory order instead of swapping the axes, so W[o, i] is not w[i, o]. Use w.T / jnp.swapaxes(w, -1, -2) for the (out, in) view, or contract the original weight directly with "bi,io->bo".
"""Exercise 3: an MLP of any depth, read off the params pytree (out-by-in einsum)."""

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int(name.removeprefix("layer"))


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=_layer_number)                       # layer1, layer2, ..., layer10, ...
    # (out, in) layout for every weight, so the contraction reads like W @ h; biases are 1-D and stay put
    w_oi = jax.tree.map(lambda a: a.reshape(a.shape[::-1]), params)
    h = x                                                           # (B, d0)
    for depth, name in enumerate(names, start=1):
        h = jnp.einsum("oi,bi->bo", w_oi[name]["w"], h) + w_oi[name]["b"][None, :]   # (B, d_k)
        if depth < len(names):
            h = jax.nn.relu(h)
    return h                                                        # (B, dN)
