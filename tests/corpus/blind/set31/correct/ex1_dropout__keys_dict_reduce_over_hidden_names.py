# BLIND-SET: 31
# EXERCISE: ex1
# WHAT: Correct rewrite: dropout scales survivors with a lambda bound to 1/(1-rate) through a default argument; forward_with_dropout zips the two hidden layer names with jax.random.split(key) into a dict of keys and folds the hidden layers with functools.reduce, then applies layer3.
# SHOULD-SAY: Nothing to fix: dropout and forward_with_dropout meet the contract (one key per dropout layer, dropout after each hidden ReLU only, identity when train is false or rate is 0).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import functools

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    survive = lambda v, keep=keep: v / keep
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), survive(x), 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    hidden = ("layer1", "layer2")
    keys = dict(zip(hidden, jax.random.split(key, len(hidden))))
    dense = lambda h, layer: h @ layer["w"] + layer["b"]
    h = functools.reduce(
        lambda h, name: dropout(keys[name], jax.nn.relu(dense(h, params[name])), rate, train),
        hidden,
        x,
    )
    return dense(h, params["layer3"])
