# BLIND-SET: 15
# EXERCISE: ex1
# WHAT: dropout folds a fresh salt from Python's `random.getrandbits(31)` into the key before drawing the mask ("so repeated calls never reuse a mask"), so the mask depends on hidden Python state as well as on the key.
# SHOULD-SAY: The zero fraction, the 1/(1-rate) rescale, train=False/rate=0, per-element masks and the MLP wiring are all right, but dropout uses a second source of randomness: the same key gives a different mask on every eager call, and under jax.jit the salt is frozen at trace time, so jitted and eager results disagree. All randomness must come from `key`; to get a new mask, pass a new (split) key instead of mixing in Python's `random` module.
"""Exercise 1: inverted dropout with one PRNG key per layer."""

import random

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    # salt the key so that calling dropout twice never gives the same mask
    key = jax.random.fold_in(key, random.getrandbits(31))
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
