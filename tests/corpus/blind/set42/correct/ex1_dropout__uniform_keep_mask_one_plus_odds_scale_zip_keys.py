# BLIND-SET: 42
# EXERCISE: ex1
# WHAT: Correct. The keep mask is jax.random.uniform(key, x.shape) < keep (the same draw jax.random.bernoulli(key, keep, x.shape) makes, so the masks are bit-identical to the reference's), survivors are multiplied by 1 + rate / keep (= 1 / (1 - rate)), and the two hidden layers are run in a loop zipped with jax.random.split(key, 2); train=False or rate == 0 returns x itself.
# SHOULD-SAY: Nothing to fix: dropout zeroes each element independently with probability rate, scales survivors by exactly 1/(1-rate), uses only the given key, and forward_with_dropout gives each hidden dropout its own split key and equals forward when train=False.
"""Exercise 1: dropout with split PRNG keys."""

from __future__ import annotations

import jax
import jax.numpy as jnp

Array = jax.Array

_HIDDEN = ("layer1", "layer2")
_OUTPUT = "layer3"


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _keep_mask(key: Array, shape: tuple[int, ...], keep: float) -> Array:
    """Boolean mask, True with probability `keep`, one independent draw per element."""
    return jax.random.uniform(key, shape) < keep


def dropout(key: Array, x: Array, rate: float, train: bool = True) -> Array:
    """Inverted dropout.

    Each element is zeroed with probability ``rate``; survivors are scaled by
    1 / (1 - rate). With train=False or rate == 0, ``x`` is returned as is.
    """
    if not 0.0 <= rate < 1.0:
        raise ValueError(f"rate must be in [0, 1), got {rate}")
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # 1 / keep == (keep + rate) / keep == 1 + rate / keep  (the drop odds plus one)
    scale = 1.0 + rate / keep
    mask = _keep_mask(key, x.shape, keep)
    return jnp.where(mask, x * scale, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU, one key per dropout."""
    keys = jax.random.split(key, len(_HIDDEN))
    h = x
    for name, layer_key in zip(_HIDDEN, keys):
        layer = params[name]
        h = jax.nn.relu(h @ layer["w"] + layer["b"])
        h = dropout(layer_key, h, rate, train)
    out = params[_OUTPUT]
    return h @ out["w"] + out["b"]
