# BLIND-SET: 42
# EXERCISE: ex1
# WHAT: forward_with_dropout adds a "robustness" guard that divides x by 255 whenever jnp.max(x) > 1 ("raw pixel values"). Any allowed input with an entry above 1 (e.g. standard-normal data) gets different logits, in training mode and with train=False, which then no longer equals forward(params, x); dropout itself is correct.
# SHOULD-SAY: forward_with_dropout changes the input: it divides x by 255 when max(x) > 1, so with train=False it differs from the plain forward pass on ordinary float inputs. Input scaling belongs in data loading, not in the model; remove the guard and feed x unchanged to layer1.
"""Exercise 1: dropout with split PRNG keys."""

from __future__ import annotations

import jax
import jax.numpy as jnp

Array = jax.Array


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key: Array, x: Array, rate: float, train: bool = True) -> Array:
    """Inverted dropout.

    Each element is zeroed independently with probability ``rate``; survivors
    are multiplied by ``1 / (1 - rate)`` so the expectation is unchanged.
    """
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, p=keep, shape=x.shape)
    return jnp.where(mask, x / keep, jnp.zeros_like(x))


def _as_unit_range(x: Array) -> Array:
    """Accept raw 0..255 MNIST pixels as well as already-normalised inputs."""
    x = jnp.asarray(x, dtype=jnp.float32)
    # jit-safe: no Python branch on a traced value.
    return jnp.where(jnp.max(x) > 1.0, x / 255.0, x)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP with dropout after each hidden ReLU."""
    x = _as_unit_range(x)
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
