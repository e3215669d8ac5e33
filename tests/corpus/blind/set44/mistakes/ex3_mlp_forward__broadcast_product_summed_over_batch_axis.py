# BLIND-SET: 44
# EXERCISE: ex3
# WHAT: Each layer is computed as a broadcast product h[:, :, None] * w[None, :, :] of shape (B, in, out), reduced with .sum(axis=0) (the batch axis) instead of .sum(axis=1) (the fan-in axis). Nothing fails, because the next layer broadcasts again: one layer gives an (d0, d1) array, N layers give (d_{N-1}, dN), and the batch is summed away, so the output is neither (B, dN) nor the right values, at every depth and width.
# SHOULD-SAY: The matrix product reduces the wrong axis: in the (B, in, out) broadcast product the contraction is over "in" (axis 1), but axis 0, the batch, is summed, so examples are added together and the output shape becomes (d_{N-1}, dN). Sum over axis=1 (or use h @ w / jnp.einsum("bi,io->bo", h, w)).
"""Exercise 3: an MLP of any depth, read off the params pytree (broadcast-and-reduce matmul)."""

import jax
import jax.numpy as jnp


def _dense(h, w, b):
    # h (B, in)[:, :, None] * w (in, out)[None] -> (B, in, out), then contract "in"
    return jnp.sum(h[:, :, None] * w[None, :, :], axis=0) + b[None, :]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    order = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    h = x
    for name in order[:-1]:
        h = jax.nn.relu(_dense(h, params[name]["w"], params[name]["b"]))
    last = params[order[-1]]
    return _dense(h, last["w"], last["b"])
