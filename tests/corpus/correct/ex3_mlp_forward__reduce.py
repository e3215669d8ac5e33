"""functools.reduce over the hidden layers, then the linear output layer."""

import functools

import jax
import jax.numpy as jnp


def _dense(h, layer):
    return jnp.matmul(h, layer["w"]) + layer["b"]


def mlp_forward(params, x):
    ordered = [params[k] for k in sorted(params, key=lambda k: int("".join(c for c in k if c.isdigit())))]
    hidden = functools.reduce(lambda h, layer: jax.nn.relu(_dense(h, layer)), ordered[:-1], x)
    return _dense(hidden, ordered[-1])
