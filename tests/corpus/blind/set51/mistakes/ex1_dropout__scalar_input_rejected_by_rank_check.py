# BLIND-SET: 51
# EXERCISE: ex1
# WHAT: dropout validates its input with "x must be at least 1-D" and raises ValueError for a 0-d array, before the train/rate checks. A scalar x, which the docstring allows ("array of any shape"), raises in every mode, even with train=False or rate=0, where x must come back unchanged. Other shapes match the reference.
# SHOULD-SAY: dropout must accept an array of any shape, including a 0-d scalar. Drop the rank check (jax.random.bernoulli works with shape ()), or at least put the train=False / rate == 0 early return before any validation of x.
"""Exercise 1: dropout with split PRNG keys (defensive version)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _validate(x, rate):
    if not hasattr(x, "shape") or not hasattr(x, "dtype"):
        raise TypeError(f"x must be an array, got {type(x).__name__}")
    if len(x.shape) < 1:
        raise ValueError("dropout expects an array of activations with at least one axis")
    rate = float(rate)
    if rate < 0.0 or rate >= 1.0:
        raise ValueError(f"rate must be in [0, 1), got {rate}")
    return rate


def dropout(key, x, rate, train=True):
    """Inverted dropout with argument checks."""
    rate = _validate(x, rate)
    if train is not True and not train:
        return x
    if rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    scaled = x * (1.0 / keep)
    return jnp.where(mask, scaled, jnp.zeros((), x.dtype)).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    for name in ("layer1", "layer2", "layer3"):
        if set(params.get(name, {})) != {"w", "b"}:
            raise ValueError(f"params[{name!r}] must hold 'w' and 'b'")
    if not train or float(rate) == 0.0:
        return forward(params, x)
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
