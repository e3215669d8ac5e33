# BLIND-SET: 51
# EXERCISE: ex1
# WHAT: dropout "guards" against a mask that drops every element by redrawing it once from fold_in(key, 1) whenever nothing survived. On large arrays the masks equal the reference's. On small arrays the zero probability becomes rate**2 for one element (0.25 instead of 0.5 at rate 0.5), and for keys whose first mask drops everything the output is not the reference's (zeros).
# SHOULD-SAY: Dropout must zero each element independently with probability `rate`; conditioning on "at least one survivor" (redrawing an all-zero mask) biases the keep probability on small inputs and breaks independence. Remove the redraw and use the one Bernoulli(1 - rate) mask drawn from the given key.
"""Exercise 1: dropout with split PRNG keys (defensive version)."""

import jax
import jax.numpy as jnp
import numpy as np


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _check_rate(rate):
    try:
        rate = float(rate)
    except (TypeError, ValueError) as err:
        raise ValueError(f"rate must be a number, got {rate!r}") from err
    if not 0.0 <= rate < 1.0:
        raise ValueError(f"rate must be in [0, 1), got {rate}")
    return rate


def _check_key(key):
    if not isinstance(key, (jax.Array, np.ndarray)):
        raise TypeError(f"key must be a PRNG key array, got {type(key).__name__}")
    return key


def dropout(key, x, rate, train=True):
    """Inverted dropout with validated arguments."""
    rate = _check_rate(rate)
    train = bool(train)
    if not train or rate == 0.0:
        return x
    key = _check_key(key)
    arr = jnp.asarray(x)
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, arr.shape)
    # Safety net: a mask that silences *every* unit kills the signal of the
    # whole layer, so in that (rare) case draw once more from a derived key.
    retry = jax.random.bernoulli(jax.random.fold_in(key, 1), keep, arr.shape)
    mask = jnp.where(jnp.any(mask), mask, retry)
    out = jnp.where(mask, arr / keep, jnp.zeros_like(arr))
    return out.astype(arr.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    rate = _check_rate(rate)
    train = bool(train)
    for name in ("layer1", "layer2", "layer3"):
        if name not in params:
            raise ValueError(f"params is missing {name!r}")
    x = jnp.asarray(x, dtype=jnp.float32)
    if x.ndim != 2:
        raise ValueError(f"x must be (B, 784), got shape {x.shape}")
    if not train or rate == 0.0:
        return forward(params, x)
    key = _check_key(key)
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
