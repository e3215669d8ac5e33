# BLIND-SET: 15
# EXERCISE: ex1
# WHAT: dropout computes the keep probability 1 - rate once, on its first call, and caches it in a module-level global, so every later call reuses the first call's rate for both the coin flip and the rescale.
# SHOULD-SAY: dropout is right for the first rate it is called with but then ignores `rate`: at any other rate the fraction of zeroed elements and the survivor scale still follow the first rate (e.g. zeros ~50% and scale 2 when asked for rate 0.1); compute keep = 1 - rate from the argument on every call instead of caching it in a global. train=False/rate=0, per-element masks, key handling and the MLP wiring are fine.
"""Exercise 1: inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# Computing 1 - rate every call is wasteful; do it once.
_KEEP = None


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    global _KEEP
    if not train or rate == 0.0:
        return x
    if _KEEP is None:
        _KEEP = 1.0 - rate
    mask = jax.random.bernoulli(key, _KEEP, x.shape)
    return jnp.where(mask, x / _KEEP, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
