# BLIND-SET: 33
# EXERCISE: ex1
# WHAT: correct rewrite: rate validated and coerced with float(), mask drawn as uniform < keep, survivors x / keep via jnp.where with zeros_like; hidden layers run in a loop with keys taken from one split(key, 2).
# SHOULD-SAY: nothing to fix: dropout and forward_with_dropout meet the contract (drop fraction, exact 1/(1-rate) scale, identity when off, one key per layer, jit-safe).
"""Exercise 1: inverted dropout with one PRNG key per layer (validated inputs)."""

import jax
import jax.numpy as jnp

_HIDDEN = ("layer1", "layer2")
_OUTPUT = "layer3"


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    rate = float(rate)
    if not 0.0 <= rate < 1.0:
        raise ValueError(f"rate must be in [0, 1), got {rate!r}")
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    u = jax.random.uniform(key, jnp.shape(x), dtype=jnp.float32)
    survived = u < keep
    out = jnp.where(survived, x / jnp.asarray(keep, dtype=x.dtype), jnp.zeros_like(x))
    assert out.shape == x.shape
    return out.astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    for name in _HIDDEN + (_OUTPUT,):
        if name not in params:
            raise KeyError(f"params is missing {name!r}")
    if x.ndim != 2:
        raise ValueError(f"x must be (batch, features), got shape {x.shape}")
    layer_keys = jax.random.split(key, len(_HIDDEN))
    h = x
    for i, name in enumerate(_HIDDEN):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(layer_keys[i], h, rate, train)
    return h @ params[_OUTPUT]["w"] + params[_OUTPUT]["b"]
