# BLIND-SET: 23
# EXERCISE: ex1
# WHAT: dropout validates rate with a strict 0 < rate < 1 before the no-op shortcut, so rate=0 (a valid input that must return x unchanged) raises ValueError, in dropout and in forward_with_dropout(rate=0); all other rates behave like the reference
# SHOULD-SAY: rate == 0 is a legal rate and must return x unchanged, but dropout raises ValueError for it (also through forward_with_dropout with rate=0.0, even with train=False). The range check is too strict: the allowed range is 0 <= rate < 1, and the rate == 0 case should reach the early return.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not 0.0 < rate < 1.0:
        raise ValueError(f"dropout rate must be in (0, 1), got {rate}")
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
