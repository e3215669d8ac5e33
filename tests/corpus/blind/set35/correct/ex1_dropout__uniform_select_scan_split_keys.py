# BLIND-SET: 35
# EXERCISE: ex1
# WHAT: correct rewrite: the coin is jax.random.uniform(key) < keep chosen with lax.select (keep probability exactly 1 - rate, survivors divided by keep), the layers are lax.dot_general contractions with lax.max for ReLU, and the two dropout keys come out of a lax.scan that splits a carried key (each layer gets a fresh subkey, the parent key is never used directly).
# SHOULD-SAY: nothing to fix: full marks.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp
from jax import lax

_MATMUL = (((1,), (0,)), ((), ()))


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = lax.full(x.shape, 1.0 - rate, x.dtype)
    coin = jax.random.uniform(key, x.shape, x.dtype)
    return lax.select(lax.lt(coin, keep), lax.div(x, keep), lax.full_like(x, 0))


def _layer_keys(key, n):
    """n independent subkeys: split the carried key, emit one half, carry the other."""

    def split_once(carry, _):
        carry, sub = jax.random.split(carry)
        return carry, sub

    _, keys = lax.scan(split_once, key, None, length=n)
    return keys


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = _layer_keys(key, 2)
    h = x
    for i, name in enumerate(("layer1", "layer2")):
        layer = params[name]
        h = lax.max(lax.dot_general(h, layer["w"], _MATMUL) + layer["b"], 0.0)
        h = dropout(keys[i], h, rate, train)
    out = params["layer3"]
    return lax.dot_general(h, out["w"], _MATMUL) + out["b"]
