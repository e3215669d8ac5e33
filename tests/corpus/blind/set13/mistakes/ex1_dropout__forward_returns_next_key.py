# BLIND-SET: 13
# EXERCISE: ex1
# WHAT: forward_with_dropout carries RNG state Haiku/stateful-style and returns a tuple (logits, next_key) instead of just the logits.
# SHOULD-SAY: forward_with_dropout must return only the (B, 10) logits; it returns a (logits, key) tuple, so its shape/value checks (train=False equals the plain forward, dropout placement) fail. dropout() itself is correct: zero fraction, 1/(1-rate) scaling, identity for train=False/rate=0, key dependence and jit are all fine; the key splitting inside the forward is also fine.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key, key1, key2 = jax.random.split(key, 3)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"], key
