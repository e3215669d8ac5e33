# BLIND-SET: 54
# EXERCISE: ex3
# WHAT: Correct. The numeric layer order is memoised with functools.lru_cache keyed by the tuple of the dict's names as given (so any new set or arrangement of names is a new entry); the layer list is pulled out of the pytree as (w, b) pairs, and a module-level jitted chain applies ReLU with jnp.where on every layer but the last. params is never modified.
# SHOULD-SAY: Nothing to fix: mlp_forward meets the contract (full marks).
"""Exercise 3: a generic MLP with a memoised layer order and a jitted chain."""

import functools

import jax
import jax.numpy as jnp


@functools.lru_cache(maxsize=256)
def _numeric_order(names):
    return tuple(sorted(names, key=lambda s: int(s.removeprefix("layer"))))


@jax.jit
def _chain(layers, x):
    h = x
    for w, b in layers[:-1]:
        z = h @ w + b
        h = jnp.where(z > 0, z, jnp.zeros_like(z))
    w, b = layers[-1]
    return h @ w + b


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    order = _numeric_order(tuple(params))
    layers = tuple((params[name]["w"], params[name]["b"]) for name in order)
    return _chain(layers, x)
