# BLIND-SET: 31
# EXERCISE: ex1
# WHAT: dropout rescales with `rescale = functools.partial(jnp.divide, keep)`; partial binds `keep` as the first (numerator) argument, so survivors become keep / x instead of x / keep (inf where x is 0). The drop fraction is right, but every surviving value is wrong, and so is the MLP's output in training mode.
# SHOULD-SAY: Survivors are not x / (1 - rate): `functools.partial(jnp.divide, keep)` fixes the numerator, so it computes keep / x. Bind the divisor instead (`lambda v: v / keep`, or `functools.partial(jnp.multiply, 1.0 / keep)`).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import functools

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    rescale = functools.partial(jnp.divide, keep)
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, rescale(x), 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
