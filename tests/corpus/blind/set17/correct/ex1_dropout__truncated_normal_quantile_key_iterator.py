# BLIND-SET: 17
# EXERCISE: ex1
# WHAT: the coin flip is a truncated-normal draw compared with its own rate-quantile (inverse CDF via ndtr/ndtri), the mask is applied with jax.lax.select, and forward_with_dropout loops over the two hidden layers taking keys from an iterator over jax.random.split(key, 2)
# SHOULD-SAY: full marks
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp
from jax.scipy.special import ndtr, ndtri

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------

_LOWER, _UPPER = -2.0, 2.0  # support of the truncated normal we draw from


def _drop_threshold(rate):
    """t with P(Z < t) = rate for Z ~ N(0, 1) truncated to [_LOWER, _UPPER]."""
    lo = ndtr(jnp.float32(_LOWER))
    hi = ndtr(jnp.float32(_UPPER))
    return ndtri(lo + rate * (hi - lo))


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if rate == 0 or not train:
        return x
    z = jax.random.truncated_normal(key, _LOWER, _UPPER, x.shape, dtype=jnp.float32)
    dropped = z < _drop_threshold(rate)
    return jax.lax.select(dropped, jnp.zeros_like(x), x / (1.0 - rate))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    layer_keys = iter(jax.random.split(key, 2))
    h = x
    for name in ("layer1", "layer2"):
        h = jax.nn.relu(jnp.dot(h, params[name]["w"]) + params[name]["b"])
        h = dropout(next(layer_keys), h, rate, train)
    return jnp.dot(h, params["layer3"]["w"]) + params["layer3"]["b"]
