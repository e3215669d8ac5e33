# BLIND-SET: 42
# EXERCISE: ex1
# WHAT: dropout validates rate with an extra ceiling, MAX_RATE = 0.9, and raises ValueError for any rate >= 0.9, although its docstring (and the contract) allow [0, 1). dropout(..., rate=0.9 or 0.95) and forward_with_dropout with such rates raise instead of returning; rates below 0.9 are correct.
# SHOULD-SAY: dropout refuses valid rates: the range check `0 <= rate < MAX_RATE` with MAX_RATE = 0.9 raises for 0.9 <= rate < 1, which the exercise allows (the scale 1/(1-rate) is finite there). Check `0 <= rate < 1` only.
"""Exercise 1: dropout with split PRNG keys."""

from __future__ import annotations

import jax
import jax.numpy as jnp

Array = jax.Array

# Above this the survivors get scaled by more than 10x, which usually means a
# keep-probability was passed by mistake.
MAX_RATE = 0.9


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _check_rate(rate: float) -> None:
    if not 0.0 <= rate < MAX_RATE:
        raise ValueError(
            f"rate={rate!r} looks wrong: expected the probability of dropping a unit, "
            f"in [0, {MAX_RATE}). Did you pass a keep probability?"
        )


def dropout(key: Array, x: Array, rate: float, train: bool = True) -> Array:
    """Inverted dropout.

    Args:
      key: PRNG key.
      x: array of any shape.
      rate: probability of zeroing each element, in [0, 1).
      train: dropout is a no-op when False.
    """
    _check_rate(rate)
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
