# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Each layer is applied in homogeneous coordinates: a column of ones is appended to the activations and the bias is stacked as an extra row under w, so one matmul does x @ w + b; layers are sorted by the integer after "layer" (new arrays only, params untouched).
# SHOULD-SAY: full marks
"""Exercise 3: an MLP of any depth, read off the params pytree (bias folded into the matmul)."""

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int(name[len("layer"):])


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    order = sorted(params, key=_layer_number)
    ones = jnp.ones((x.shape[0], 1), dtype=x.dtype)
    for i, name in enumerate(order):
        w_aug = jnp.concatenate([params[name]["w"], params[name]["b"][None, :]], axis=0)
        x = jnp.concatenate([x, ones], axis=1) @ w_aug
        if i < len(order) - 1:
            x = jax.nn.relu(x)
    return x
