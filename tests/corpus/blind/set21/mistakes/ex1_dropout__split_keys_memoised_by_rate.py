# BLIND-SET: 21
# EXERCISE: ex1
# WHAT: forward_with_dropout memoises the two per-layer keys in a module-level dict keyed by `rate` (like building nn.Dropout modules once in __init__), so every later call with the same rate reuses the keys split from the first call's key and ignores the key it is given.
# SHOULD-SAY: dropout itself is correct and each layer does get a distinct key, but forward_with_dropout caches the split keys across calls: a different `key` gives the same dropout masks (and if the first call happened under jit, a leaked tracer). Split the key passed in on every call; do not keep keys in Python globals.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp

# Split once per dropout configuration and reuse, like creating the
# nn.Dropout modules once in __init__.
_LAYER_KEYS = {}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if rate not in _LAYER_KEYS:
        _LAYER_KEYS[rate] = jax.random.split(key)
    key1, key2 = _LAYER_KEYS[rate]
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
