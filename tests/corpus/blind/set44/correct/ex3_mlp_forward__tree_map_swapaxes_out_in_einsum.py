# BLIND-SET: 44
# EXERCISE: ex3
# WHAT: Correct. mlp_forward builds a new (out, in) view of every weight with jax.tree.map(lambda a: jnp.swapaxes(a, -1, -2) if a.ndim == 2 else a, params), which leaves params untouched. Layers are walked in numeric order of their "layerN" suffix, and each one is jnp.einsum("oi,...i->...o") plus b[jnp.newaxis, :], with jnp.maximum(h, 0) after all but the last.
# SHOULD-SAY: Nothing to fix: the layers run in numeric order (layer10 after layer9) at any depth, ReLU follows every layer except the last, and params is not modified.
"""Exercise 3: an MLP of any depth, read off the params pytree (out-by-in einsum)."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    w_oi = jax.tree.map(lambda a: jnp.swapaxes(a, -1, -2) if a.ndim == 2 else a, params)  # new tree
    order = sorted(w_oi, key=lambda name: int(name.removeprefix("layer")))
    h = x                                                                  # (B, d0)
    for k, name in enumerate(order):
        h = jnp.einsum("oi,...i->...o", w_oi[name]["w"], h) + w_oi[name]["b"][jnp.newaxis, :]   # (B, d_k)
        if k < len(order) - 1:
            h = jnp.maximum(h, 0.0)
    return h                                                               # (B, dN)
