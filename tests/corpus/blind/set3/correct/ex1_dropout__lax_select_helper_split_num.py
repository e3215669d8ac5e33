# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Uses jax.random.split(key, num=2) unpacked into a tuple, a small hidden-layer helper, and jax.lax.select with a broadcast scale for the mask.
# SHOULD-SAY: full marks
"""Exercise 1: dropout written with jax.lax.select and a layer helper."""

import jax
import jax.numpy as jnp
from jax import lax


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if rate == 0.0 or train is False or not train:
        return x
    scale = jnp.asarray(1.0 / (1.0 - rate), dtype=x.dtype)
    keep_mask = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return lax.select(keep_mask, x * scale, lax.full_like(x, 0.0))


def _hidden(layer, h):
    return jax.nn.relu(jnp.dot(h, layer["w"]) + layer["b"])


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    drop_key_1, drop_key_2 = jax.random.split(key, num=2)
    h = dropout(drop_key_1, _hidden(params["layer1"], x), rate, train)
    h = dropout(drop_key_2, _hidden(params["layer2"], h), rate, train)
    return jnp.dot(h, params["layer3"]["w"]) + params["layer3"]["b"]
