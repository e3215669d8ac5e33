# BLIND-SET: 30
# EXERCISE: ex1
# WHAT: correct rewrite: the keep mask is jax.random.uniform(key, x.shape) >= rate (keep probability exactly 1 - rate), survivors multiplied by the reciprocal of the keep probability; the forward pass splits the key once into a {layer name: key} dict and loops over the hidden layers with a functools.partial-bound dropout.
# SHOULD-SAY: Nothing to fix: inverted dropout with an independent coin per element, identity for train=False or rate 0, one fresh key per dropout layer, dropout only after the two hidden ReLUs.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import functools

import jax
import jax.numpy as jnp

_HIDDEN = ("layer1", "layer2")
_OUTPUT = "layer3"


def dropout(key: jax.Array, x: jax.Array, rate: float, train: bool = True) -> jax.Array:
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    # u ~ U[0, 1): P(u >= rate) = 1 - rate, one draw per element.
    keep_mask = jax.random.uniform(key, x.shape) >= rate
    scale = 1.0 / (1.0 - rate)
    return jnp.where(keep_mask, x * scale, jnp.zeros_like(x)).astype(x.dtype)


def _dense(layer: dict, h: jax.Array) -> jax.Array:
    return h @ layer["w"] + layer["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    # One independent key per dropout layer, derived once from the parent key.
    layer_keys = dict(zip(_HIDDEN, jax.random.split(key, len(_HIDDEN))))
    drop = functools.partial(dropout, rate=rate, train=train)
    h = x
    for name in _HIDDEN:
        h = drop(layer_keys[name], jax.nn.relu(_dense(params[name], h)))
    return _dense(params[_OUTPUT], h)
