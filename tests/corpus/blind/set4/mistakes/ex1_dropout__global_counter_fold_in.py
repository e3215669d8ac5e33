# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: A global call counter is folded into the key so every call gets a fresh mask, so the same key no longer gives the same mask.
# SHOULD-SAY: dropout must depend only on its key: the same key must give the same mask (no hidden state such as a call counter)
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


_calls = 0  # so that repeated calls never reuse a mask


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    global _calls
    if not train or rate == 0.0:
        return x
    _calls += 1
    key = jax.random.fold_in(key, _calls)
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
