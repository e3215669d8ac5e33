# BLIND-SET: 46
# EXERCISE: ex3
# WHAT: correct: each layer is a regression on a design matrix with an intercept column, [1, h] @ [b; w], which equals h @ w + b to float32 tolerance; layers are ordered by numpy argsort of their integer suffixes (layer10 after layer9), ReLU after every layer but the last, params untouched.
# SHOULD-SAY: nothing to fix: mlp_forward meets the contract.
"""Exercise 3: a generic MLP as a stack of linear predictors with intercepts."""

import jax
import jax.numpy as jnp
import numpy as np


def _design(h):
    """Design matrix with a leading intercept column of ones."""
    return jnp.concatenate([jnp.ones((h.shape[0], 1), dtype=h.dtype), h], axis=1)


def _coefficients(layer):
    """Stack the intercept (bias) on top of the slopes (weights): (1 + d_in, d_out)."""
    return jnp.concatenate([layer["b"][None, :], layer["w"]], axis=0)


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = list(params)
    index = np.array([int(name[5:]) for name in names])
    ordered = [names[j] for j in np.argsort(index)]
    h = x
    for k, name in enumerate(ordered):
        h = _design(h) @ _coefficients(params[name])
        if k < len(ordered) - 1:
            h = jnp.maximum(h, 0.0)
    return h
