# BLIND-SET: 55
# EXERCISE: ex3
# WHAT: correct: the natural order comes from two stable sorts done in the right order (sorted by name, then .sort(key=len), so len is the primary key: layer1..layer9, layer10..), weights and biases read from the same ordered names, jnp.clip(h, 0) as ReLU on all but the last layer, params untouched.
# SHOULD-SAY: Nothing to fix: every ex3 check should pass.
"""Exercise 3: MLP of any depth; natural order via two stable sorts."""

import functools

import jax
import jax.numpy as jnp


def _dense(h, layer):
    return jnp.matmul(h, layer["w"]) + layer["b"]


def mlp_forward(params, x):
    names = sorted(params)   # secondary key: the name
    names.sort(key=len)      # primary key (last stable pass): the length
    layers = [params[n] for n in names]
    hidden = functools.reduce(lambda h, layer: jnp.clip(_dense(h, layer), 0), layers[:-1], x)
    return _dense(hidden, layers[-1])
