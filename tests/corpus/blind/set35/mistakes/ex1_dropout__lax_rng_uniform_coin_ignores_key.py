# BLIND-SET: 35
# EXERCISE: ex1
# WHAT: dropout draws its coin with jax.lax.rng_uniform (XLA's stateful generator) instead of from `key`, so the key is never used: the same key gives a different mask on every call and different keys do not control the mask. Drop fraction and scaling are still right.
# SHOULD-SAY: lax.rng_uniform is a hidden, stateful source of randomness that ignores the PRNG key you were given; the mask must be a function of `key` (e.g. jax.random.bernoulli(key, 1 - rate, x.shape) or jax.random.uniform(key, x.shape) < 1 - rate) so that the same key reproduces the same mask.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp
from jax import lax


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = jnp.full(x.shape, 1.0 - rate, x.dtype)
    coin = lax.rng_uniform(jnp.zeros((), x.dtype), jnp.ones((), x.dtype), x.shape)
    return lax.select(lax.lt(coin, keep), lax.div(x, keep), jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
