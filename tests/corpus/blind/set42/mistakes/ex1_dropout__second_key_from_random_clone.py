# BLIND-SET: 42
# EXERCISE: ex1
# WHAT: forward_with_dropout derives the second layer's key with jax.random.clone(key1), believing clone gives an independent copy, but clone returns the same key, so both hidden-layer masks are drawn from the same key1 (one key used twice); the first layer's mask equals the reference's, the second layer's differs. With train=False the output is right; dropout itself is correct.
# SHOULD-SAY: The two dropout layers use the same key: jax.random.clone(k) returns k unchanged (it only marks a key as reusable); it does not split. Get the keys with key1, key2 = jax.random.split(key) and pass key2 to the second dropout.
"""Exercise 1: dropout with split PRNG keys."""

from __future__ import annotations

import jax
import jax.numpy as jnp

Array = jax.Array
Params = dict[str, dict[str, Array]]


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _validate_rate(rate: float) -> float:
    """Make sure `rate` is a probability we can drop with."""
    rate = float(rate)
    if not 0.0 <= rate < 1.0:
        raise ValueError(f"dropout rate must be in [0, 1), got {rate}")
    return rate


def dropout(key: Array, x: Array, rate: float, train: bool = True) -> Array:
    """Inverted dropout: zero each element with probability `rate`, scale the rest by 1/(1-rate)."""
    rate = _validate_rate(rate)
    if not train or rate == 0.0:
        return x
    keep_prob = 1.0 - rate
    # bernoulli(p) is True with probability p, so p is the *keep* probability here.
    keep_mask = jax.random.bernoulli(key, keep_prob, x.shape)
    return jnp.where(keep_mask, x / keep_prob, 0.0).astype(x.dtype)


def _dense(h: Array, layer: dict[str, Array]) -> Array:
    return h @ layer["w"] + layer["b"]


def forward_with_dropout(params: Params, x: Array, key: Array, rate: float = 0.5, train: bool = True) -> Array:
    """The lesson's MLP with dropout after each hidden ReLU (one key per dropout layer)."""
    if not train:
        return forward(params, x)
    # Split once for the first layer, then make an independent copy for the second one.
    key1, _ = jax.random.split(key)
    key2 = jax.random.clone(key1)
    h = jax.nn.relu(_dense(x, params["layer1"]))
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(_dense(h, params["layer2"]))
    h = dropout(key2, h, rate, train)
    return _dense(h, params["layer3"])
