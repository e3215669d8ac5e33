# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: forward_with_dropout fuses ReLU and dropout into one jnp.where (keep where the bernoulli mask is set and the pre-activation is positive, scaled by 1/keep), which equals dropout(relu(z)); train=False / rate 0 take a plain forward path, and dropout itself is a standard bernoulli mask.
# SHOULD-SAY: full marks
"""Exercise 1: dropout, with ReLU and dropout fused in the MLP."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _affine(layer, h):
    return h @ layer["w"] + layer["b"]


def _relu_dropout(key, z, keep):
    """dropout(relu(z)) in one pass: survivors must be kept AND positive."""
    mask = jax.random.bernoulli(key, keep, z.shape)
    return jnp.where(mask & (z > 0), z / keep, 0.0).astype(z.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if not train or rate == 0.0:
        h = jax.nn.relu(_affine(params["layer1"], x))
        h = jax.nn.relu(_affine(params["layer2"], h))
        return _affine(params["layer3"], h)
    keep = 1.0 - rate
    k_hidden1, k_hidden2 = jax.random.split(key)
    h = _relu_dropout(k_hidden1, _affine(params["layer1"], x), keep)
    h = _relu_dropout(k_hidden2, _affine(params["layer2"], h), keep)
    return _affine(params["layer3"], h)
