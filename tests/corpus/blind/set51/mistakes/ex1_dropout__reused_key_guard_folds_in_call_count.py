# BLIND-SET: 51
# EXERCISE: ex1
# WHAT: dropout keeps a module-level record of every key it has seen (outside jit) and, to "never use one key twice", replaces a key seen before with fold_in(key, n). The first call with a key matches the reference. Every later eager call with the same key gives a different mask, so the same key no longer gives the same mask, and forward_with_dropout called twice with one key gives different logits.
# SHOULD-SAY: The same key must give the same mask: dropout has to be a pure function of (key, x, rate). Remove the seen-keys registry and the fold_in; reusing keys is the caller's job to avoid (forward_with_dropout already splits), not something dropout should "fix" with hidden state.
"""Exercise 1: dropout with split PRNG keys (defensive version)."""

import jax
import jax.numpy as jnp
import numpy as np


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# Keys that have already been consumed (by their two uint32 words).
_USED_KEYS = {}


def _unused_key(key):
    """Guard against key reuse: a key seen before is folded with its use count."""
    try:
        fingerprint = tuple(int(v) for v in np.asarray(key).ravel())
    except Exception:  # a tracer under jit: cannot inspect it, trust the caller
        return key
    uses = _USED_KEYS.get(fingerprint, 0)
    _USED_KEYS[fingerprint] = uses + 1
    if uses == 0:
        return key
    return jax.random.fold_in(key, uses)


def _validated_rate(rate):
    rate = float(rate)
    if not 0.0 <= rate < 1.0:
        raise ValueError(f"rate must be in [0, 1), got {rate}")
    return rate


def dropout(key, x, rate, train=True):
    """Inverted dropout; zero with probability rate, scale survivors by 1/(1-rate)."""
    rate = _validated_rate(rate)
    if not bool(train) or rate == 0.0:
        return x
    if not isinstance(key, (jax.Array, np.ndarray)):
        raise TypeError("key must be a PRNG key array")
    key = _unused_key(key)
    keep = 1.0 - rate
    arr = jnp.asarray(x)
    mask = jax.random.bernoulli(key, keep, arr.shape)
    return jnp.where(mask, arr / keep, 0.0).astype(arr.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    rate = _validated_rate(rate)
    missing = [n for n in ("layer1", "layer2", "layer3") if n not in params]
    if missing:
        raise ValueError(f"params is missing {missing}")
    if not bool(train) or rate == 0.0:
        return forward(params, x)
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, True)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, True)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
