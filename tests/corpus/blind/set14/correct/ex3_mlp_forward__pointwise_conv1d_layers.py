# BLIND-SET: 14
# EXERCISE: ex3
# WHAT: Each dense layer is computed as a width-1 1-D convolution (jax.lax.conv_general_dilated with an NWC/WIO/NWC layout) and the layers are ordered by a natural-sort key built with re.split.
# SHOULD-SAY: Everything correct: agrees with the reference at every depth (1, 2, 3, 5, 12) with equal and unequal widths and any dict order, ReLU after every layer but the last, depth and order read from params, params unmodified, same results under jax.jit.
"""Exercise 3 (variant): dense layers written as 1x1 convolutions."""

import re

import jax
import jax.numpy as jnp


def _natural_key(name):
    """'layer10' -> ['layer', 10, ''] so that numbers compare as numbers."""
    return [int(tok) if tok.isdigit() else tok for tok in re.split(r"(\d+)", name)]


def _dense_as_conv(x, w, b):
    """x @ w + b, computed as a width-1 convolution over a length-1 sequence."""
    lhs = x[:, None, :]  # (B, W=1, C_in)
    rhs = w[None, :, :]  # (W=1, C_in, C_out)
    out = jax.lax.conv_general_dilated(
        lhs, rhs, window_strides=(1,), padding="VALID",
        dimension_numbers=("NWC", "WIO", "NWC"),
        precision=jax.lax.Precision.HIGHEST,
    )
    return out[:, 0, :] + b


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order."""
    names = sorted(params, key=_natural_key)
    *hidden, last = names
    h = x
    for name in hidden:
        h = jnp.maximum(_dense_as_conv(h, params[name]["w"], params[name]["b"]), 0.0)
    return _dense_as_conv(h, params[last]["w"], params[last]["b"])
