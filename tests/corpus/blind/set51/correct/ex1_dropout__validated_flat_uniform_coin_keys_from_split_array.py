# BLIND-SET: 51
# EXERCISE: ex1
# WHAT: Correct. Defensive dropout: rate and train are validated, x is flattened to a canonical 1-D view, the coin is uniform(key, (n,)) < keep (bit-identical to the reference's bernoulli mask for the same key), survivors are multiplied by 1/keep, and the result is reshaped back. x itself is returned when train is False or rate == 0. forward_with_dropout validates params and x, takes its two layer keys from one jax.random.split(key, 2) array, and loops over the hidden layers.
# SHOULD-SAY: Nothing to fix: inverted dropout with one fresh key per hidden dropout layer, the same masks as jax.random.bernoulli for the same key, and the plain forward pass when train is False.
"""Exercise 1: dropout with split PRNG keys (defensive, correct)."""

import jax
import jax.numpy as jnp
import numpy as np


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


_HIDDEN = ("layer1", "layer2")
_OUTPUT = "layer3"


def _validated_rate(rate):
    if isinstance(rate, bool):
        raise TypeError("rate must be a float, not a bool")
    rate = float(rate)
    if not (0.0 <= rate < 1.0):
        raise ValueError(f"rate must lie in [0, 1), got {rate}")
    return rate


def _validated_train(train):
    if not isinstance(train, (bool, np.bool_)):
        raise TypeError(f"train must be a bool, got {type(train).__name__}")
    return bool(train)


def dropout(key, x, rate, train=True):
    """Inverted dropout with validated arguments."""
    rate = _validated_rate(rate)
    if not _validated_train(train) or rate == 0.0:
        return x
    if not isinstance(key, (jax.Array, np.ndarray)):
        raise TypeError("key must be a PRNG key array")
    arr = jnp.asarray(x)
    shape = arr.shape
    flat = arr.reshape(-1)  # canonical rank 1; restored below
    keep = 1.0 - rate
    coin = jax.random.uniform(key, flat.shape, dtype=jnp.float32) < keep
    kept = jnp.where(coin, flat * (1.0 / keep), jnp.zeros_like(flat))
    return kept.reshape(shape).astype(arr.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    rate = _validated_rate(rate)
    train = _validated_train(train)
    for name in _HIDDEN + (_OUTPUT,):
        if name not in params or not {"w", "b"} <= set(params[name]):
            raise ValueError(f"params[{name!r}] must hold 'w' and 'b'")
    x = jnp.asarray(x)
    if x.ndim != 2:
        raise ValueError(f"x must be (B, 784), got {x.shape}")
    if not train or rate == 0.0:
        return forward(params, x)
    layer_keys = jax.random.split(key, len(_HIDDEN))
    h = x
    for name, layer_key in zip(_HIDDEN, layer_keys):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(layer_key, h, rate, True)
    return h @ params[_OUTPUT]["w"] + params[_OUTPUT]["b"]
