# BLIND-SET: 30
# EXERCISE: ex3
# WHAT: each layer is computed as jnp.tensordot(x, w) + b, relying on tensordot's default axes; the default is axes=2 (contract the last two axes of x with the first two of w), not a matrix product, so every call raises a dot_general shape error at any depth (only a square batch, B == d_in == d_out, gets through one layer, as a (d_out,) vector: the scalar sum of x*w plus b).
# SHOULD-SAY: jnp.tensordot defaults to axes=2, like NumPy. For a layer you need jnp.tensordot(x, w, axes=1), or just x @ w / jnp.dot(x, w).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def _affine(layer: dict, h: jax.Array) -> jax.Array:
    """h @ w + b, written with tensordot so it also works for extra leading axes."""
    return jnp.tensordot(h, layer["w"]) + layer["b"]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(_affine(params[name], x))
    return _affine(params[names[-1]], x)
