# BLIND-SET: 15
# EXERCISE: ex3
# WHAT: each layer uses the "bias trick" (one matmul with an augmented input and weight matrix) but puts the column of ones FIRST in the input while appending the bias as the LAST row of the weights, so the ones meet w's first row and the last input feature gets multiplied by the bias.
# SHOULD-SAY: Layer ordering (layer10 after layer9), depth from params and ReLU placement are right and params are untouched, but every affine layer is wrong: in [1, h] @ [[w], [b]] the 1 multiplies w[0] and the bias row multiplies h's last feature, and every other input feature is paired with the next row of w (off by one), so outputs disagree with x @ w + b at every depth and width. Put the ones column on the same side as the bias row (h_aug = [h, 1] with w_aug = [[w], [b]]) or simply compute h @ w + b.
"""Exercise 3: an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def _affine(layer, h):
    """h @ w + b as one matmul: augment h with a ones column and w with the bias row."""
    ones = jnp.ones((h.shape[0], 1), h.dtype)
    h_aug = jnp.concatenate([ones, h], axis=1)  # (B, d_in + 1)
    w_aug = jnp.concatenate([layer["w"], layer["b"][None, :]], axis=0)  # (d_in + 1, d_out)
    return h_aug @ w_aug


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(_affine(params[name], x))
    return _affine(params[names[-1]], x)
