# BLIND-SET: 16
# EXERCISE: ex3
# WHAT: each layer uses the "bias trick" (append a column of ones to the activations and stack the bias onto the weights), but the bias is stacked as the FIRST row while the ones column is appended LAST, so the bias row multiplies the first feature and every weight row is paired with the wrong input feature.
# SHOULD-SAY: layer order is worked out correctly from the params (numeric layer1..layerN, layer10 after layer9), ReLU sits after every layer but the last and params are left untouched, but each affine map is wrong: with x_aug = [x, 1] the stacked matrix must be [w; b] (bias as the last row), whereas [b; w] shifts every weight row by one feature and adds the last weight row instead of the bias; stack the bias where the ones column is, or simply compute x @ w + b.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def _affine(x, layer):
    """x @ w + b in one matmul: append a ones column and stack b onto w."""
    ones = jnp.ones(x.shape[:-1] + (1,), dtype=x.dtype)
    x_aug = jnp.concatenate([x, ones], axis=-1)
    w_aug = jnp.concatenate([layer["b"][None, :], layer["w"]], axis=0)
    return x_aug @ w_aug


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(_affine(x, params[name]))
    last = params[names[-1]]
    return _affine(x, last)
