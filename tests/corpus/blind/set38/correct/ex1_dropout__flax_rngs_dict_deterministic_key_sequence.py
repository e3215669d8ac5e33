# BLIND-SET: 38
# EXERCISE: ex1
# WHAT: Correct: dropout() has a Flax-style keyword-only deterministic that overrides train, returns x itself when deterministic or rate == 0, and otherwise uses bernoulli(key, 1 - rate, x.shape) with lax.select(mask, x / keep, 0), identical to the reference for the same key. forward_with_dropout walks a creation-order list of (layer, has_dropout) pairs and draws its keys from a Flax-like Rngs({"dropout": key}) that hands out the rows of jax.random.split(key, 2) in order (the reference's k1, k2).
# SHOULD-SAY: Nothing to fix: inverted dropout with the right rate and scale, x returned unchanged in eval or at rate 0, one key per dropout layer, dropout only after the two hidden ReLUs.
"""Exercise 1: dropout with split PRNG keys, written with Flax/Haiku habits (rngs streams, deterministic=)."""

import jax
import jax.numpy as jnp
from jax import lax


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True, *, deterministic=None):
    """Inverted dropout, like flax.linen.Dropout(rate)(x, deterministic=not train, rng=key)."""
    if deterministic is None:
        deterministic = not train
    if deterministic or rate == 0.0:
        return x
    keep_prob = 1.0 - rate
    mask = jax.random.bernoulli(key, p=keep_prob, shape=x.shape)
    return lax.select(mask, x / keep_prob, jnp.zeros_like(x))


class Rngs:
    """A small stand-in for the rngs={'dropout': key} dict a Flax module sees.

    Each stream is split once into as many keys as it will be asked for, and
    make_rng hands them out in order, so no key is ever used twice.
    """

    def __init__(self, streams, counts):
        self._keys = {name: iter(jax.random.split(streams[name], counts[name])) for name in counts}

    def make_rng(self, name):
        return next(self._keys[name])


def _dense(layer, h):
    kernel = layer["kernel"] if "kernel" in layer else layer["w"]
    bias = layer["bias"] if "bias" in layer else layer["b"]
    return h @ kernel + bias


# (module name, dropout after its ReLU?) in creation order, like the submodules of an nn.Module
_LAYERS = (("layer1", True), ("layer2", True), ("layer3", False))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    deterministic = not train
    n_dropout = sum(has_dropout for _, has_dropout in _LAYERS)
    rngs = Rngs({"dropout": key}, {"dropout": n_dropout})
    h = x
    for name, has_dropout in _LAYERS:
        h = _dense(params[name], h)
        if has_dropout:  # hidden layer: ReLU, then dropout
            h = jax.nn.relu(h)
            h = dropout(rngs.make_rng("dropout"), h, rate, deterministic=deterministic)
    return h
