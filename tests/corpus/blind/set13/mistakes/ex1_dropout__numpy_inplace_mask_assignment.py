# BLIND-SET: 13
# EXERCISE: ex1
# WHAT: dropout zeroes the dropped units NumPy-style with in-place boolean assignment (out[~mask] = 0), which JAX arrays do not support.
# SHOULD-SAY: dropout raises a TypeError whenever train=True and rate>0 ('JAX arrays are immutable'; use jnp.where or x.at[...].set); the train=False / rate=0 identity path and the key splitting in forward_with_dropout are fine, and train=False forward equals the plain forward. The mask itself (bernoulli with keep prob, 1/(1-rate) scale) would have been right.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    out = x / keep
    out[~mask] = 0.0
    return out.astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
