# BLIND-SET: 21
# EXERCISE: ex1
# WHAT: correct: the mask comes from jax.random.uniform and jnp.piecewise (0 where u < rate, x/(1-rate) elsewhere); the MLP unstacks jax.random.split(key, 2) with jnp.unstack and walks the two hidden layers in a loop of (name, key) pairs.
# SHOULD-SAY: full marks: inverted dropout with an independent coin per element at probability `rate`, survivors scaled by 1/(1-rate), identity for train=False or rate=0, one fresh subkey per dropout layer, dropout only after the two hidden ReLUs, and the same results under jax.jit.
"""Exercise 1: inverted dropout written with jnp.piecewise and a per-layer key loop."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Inverted dropout: a uniform draw below `rate` zeroes the element."""
    if rate == 0 or not train:
        return x
    u = jax.random.uniform(key, jnp.shape(x))
    inv_keep = 1.0 / (1.0 - rate)
    out = jnp.piecewise(x, [u < rate], [0.0, lambda v: v * inv_keep])
    return out.astype(x.dtype)


def _dense(layer, h):
    return h @ layer["w"] + layer["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP; each hidden ReLU is followed by dropout with its own subkey."""
    hidden_keys = jnp.unstack(jax.random.split(key, 2))
    h = x
    for name, subkey in zip(("layer1", "layer2"), hidden_keys):
        h = dropout(subkey, jax.nn.relu(_dense(params[name], h)), rate, train)
    return _dense(params["layer3"], h)
