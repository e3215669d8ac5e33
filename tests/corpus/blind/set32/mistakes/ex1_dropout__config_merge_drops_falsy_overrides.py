# BLIND-SET: 32
# EXERCISE: ex1
# WHAT: dropout() merges its arguments into a DEFAULTS config dict with `{k: v for k, v in overrides.items() if v}`, meant to skip None but also skipping every falsy value: train=False falls back to the default True and rate=0.0 to the default 0.5. So train=False and rate=0 still drop half the elements (and forward_with_dropout(train=False) is not the plain forward pass); positive rates with train=True are right.
# SHOULD-SAY: train=False and rate=0 do not return x unchanged; they apply dropout at rate 0.5. The config merge filters overrides with `if v`, which throws away False and 0.0 as well as None, so the defaults come back. Filter with `if v is not None` (or just use the arguments directly).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


DEFAULTS = {"rate": 0.5, "train": True}


def _resolve_config(**overrides):
    """Defaults, updated with the overrides the caller actually gave."""
    config = dict(DEFAULTS)
    config.update({name: value for name, value in overrides.items() if value})
    return config


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    config = _resolve_config(rate=rate, train=train)
    if not config["train"] or config["rate"] == 0.0:
        return x
    keep = 1.0 - config["rate"]
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
