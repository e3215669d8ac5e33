# BLIND-SET: 26
# EXERCISE: ex1
# WHAT: dropout compiles its masking function with jax.jit once per input shape and caches it in a module dict keyed by x.shape only; the cached closure captured the `rate` of the first call, so a later call with the same shape and another rate silently drops (and rescales) with the first rate.
# SHOULD-SAY: after the first call for a given shape, a different `rate` is ignored: the cache of compiled functions is keyed by x.shape but each cached closure baked in the first call's rate; drop the cache (jit the caller with rate static) or put rate in the cache key.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


_compiled_dropout = {}  # x.shape -> jitted masking function, so each shape compiles once


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    fn = _compiled_dropout.get(x.shape)
    if fn is None:
        keep = 1.0 - rate

        @jax.jit
        def fn(key, x):
            mask = jax.random.bernoulli(key, keep, x.shape)
            return jnp.where(mask, x / keep, 0.0).astype(x.dtype)

        _compiled_dropout[x.shape] = fn
    return fn(key, x)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
