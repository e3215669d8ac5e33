# BLIND-SET: 14
# EXERCISE: ex1
# WHAT: dropout() folds a value from Python's random module into the key, so the mask is not a function of the key alone.
# SHOULD-SAY: dropout drops the right fraction and scales survivors correctly, but the same key does not give the same mask twice (a salt from Python's random module is folded into the key; under jax.jit the salt is frozen at trace time, so jitted and eager results disagree); all randomness must come from the key argument. forward_with_dropout inherits the non-determinism; train=False paths are right.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

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
    keep = 1.0 - rate
    # Mix in a fresh salt so every call gets a new mask, like torch's dropout.
    key = jax.random.fold_in(key, random.getrandbits(31))
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
