"""dropout caches its mask by (shape, rate): every later call with another key reuses the first call's mask.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.key_only_randomness", "mistake": "ex1.key_ignored", "hint": "drawn once and reused", "max_failing": 1}


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
