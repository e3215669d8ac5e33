# BLIND-SET: 24
# EXERCISE: ex1
# WHAT: correct rewrite: each element keeps with an exponential waiting time drawn as jax.random.gamma(key, 1.0, shape) exceeding -log(1 - rate), which happens with probability exactly 1 - rate; survivors are divided by 1 - rate inside jnp.where against a typed zero, and forward_with_dropout splits the key into two and runs the hidden layers in a loop over (layer name, key) pairs.
# SHOULD-SAY: full marks
"""Exercise 1: dropout with an exponential-threshold coin and a layer loop."""

import math

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Inverted dropout; `rate` and `train` are Python values."""
    if not train or rate == 0.0:
        return x
    survive = 1.0 - rate
    # A unit-rate exponential (gamma with shape 1) exceeds t with probability exp(-t).
    waiting = jax.random.gamma(key, 1.0, shape=x.shape, dtype=jnp.float32)
    kept = waiting > -math.log(survive)
    return jnp.where(kept, x / survive, jnp.zeros((), dtype=x.dtype))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP, dropout after the two hidden ReLUs only."""
    hidden_names = ("layer1", "layer2")
    layer_keys = jax.random.split(key, len(hidden_names))
    h = x
    for name, layer_key in zip(hidden_names, layer_keys):
        layer = params[name]
        h = dropout(layer_key, jax.nn.relu(jnp.dot(h, layer["w"]) + layer["b"]), rate, train)
    head = params["layer3"]
    return jnp.dot(h, head["w"]) + head["b"]
