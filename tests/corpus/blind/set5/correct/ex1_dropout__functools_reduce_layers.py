# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: the two hidden layers are folded with functools.reduce over (layer name, key) pairs built by zipping the names with jax.random.split(key, 2); dropout uses jnp.where on a bernoulli mask with zeros_like.
# SHOULD-SAY: full marks
"""Exercise 1: dropout with split PRNG keys, hidden layers folded with reduce."""

import functools

import jax
import jax.numpy as jnp

_HIDDEN = ("layer1", "layer2")


def dropout(key, x, rate, train=True):
    """Inverted dropout: keep with probability 1 - rate, scale survivors by 1/(1-rate)."""
    if rate == 0.0 or not train:
        return x
    keep = 1.0 - rate
    survives = jax.random.bernoulli(key, p=keep, shape=x.shape)
    return jnp.where(survives, x / keep, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU, one key per dropout layer."""

    def hidden_block(h, name_and_key):
        name, layer_key = name_and_key
        layer = params[name]
        h = jax.nn.relu(h @ layer["w"] + layer["b"])
        return dropout(layer_key, h, rate, train)

    layer_keys = jax.random.split(key, len(_HIDDEN))
    h = functools.reduce(hidden_block, zip(_HIDDEN, layer_keys), x)
    out = params["layer3"]
    return h @ out["w"] + out["b"]
