# BLIND-SET: 54
# EXERCISE: ex1
# WHAT: dropout returns x untouched whenever the expected number of dropped elements, rate * x.size, is below 1 ("nothing to drop, skip the RNG"). For small arrays or small rates with rate > 0 (e.g. a (4, 10) array at rate 0.02, or a (2, 3) array at rate 0.1) no element is zeroed and the survivors are not scaled by 1/(1-rate), so the output differs from the reference's for the same key.
# SHOULD-SAY: Dropout must flip a coin for every element whenever train is true and rate > 0, however small the array; skipping it on a small expected drop count also skips the 1/(1-rate) rescale. Only return x unchanged for train=False or rate == 0.
"""Exercise 1: inverted dropout, skipping the work when there is nothing to drop."""

import functools

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


@functools.cache
def _scale_for(rate):
    return 1.0 / (1.0 - rate)


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    # expected number of zeros is rate * size; below one there is nothing worth
    # drawing a mask for
    if rate * x.size < 1.0:
        return x
    mask = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(mask, x * _scale_for(rate), 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    k_hidden1, k_hidden2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k_hidden1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k_hidden2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
