# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout memoises the mask in a module-level dict keyed by (shape, rate), so it is drawn once from the first key and reused for every later key (and under jax.jit the cache stores a tracer).
# SHOULD-SAY: ex1 key-dependence check fails: a different key gives the same mask (the mask is cached by shape); under jax.jit the cached tracer leaks, so later calls raise UnexpectedTracerError / disagree with eager; impure hidden state.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


_MASK_CACHE = {}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    cache_key = (tuple(x.shape), rate)
    if cache_key not in _MASK_CACHE:
        # drawing a fresh mask every call is wasteful: draw once per shape
        _MASK_CACHE[cache_key] = jax.random.bernoulli(key, keep, x.shape)
    mask = _MASK_CACHE[cache_key]
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
