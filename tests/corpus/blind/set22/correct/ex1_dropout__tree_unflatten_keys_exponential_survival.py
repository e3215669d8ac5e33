# BLIND-SET: 22
# EXERCISE: ex1
# WHAT: correct variant: per-layer keys built as a dict with jax.tree.unflatten over jax.random.split, the mask drawn as exponential survival E > -log(1-rate) with E ~ Exp(1) (probability exactly 1-rate), jax.lax.select for the masking and functools.reduce over the layer names.
# SHOULD-SAY: full marks: each element is kept independently with probability 1-rate and scaled by 1/(1-rate), train=False and rate=0 return x unchanged, the same key gives the same mask, each hidden dropout gets its own key from one split, and train=False equals the plain forward pass.
"""Exercise 1: inverted dropout, keys handed out per layer as a pytree."""

import functools
import math

import jax
import jax.numpy as jnp

_LAYERS = ("layer1", "layer2", "layer3")
_DROPPED = _LAYERS[:-1]  # dropout after the hidden ReLUs only


def dropout(key, x, rate, train=True):
    """Inverted dropout with an exponential-survival coin per element."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # For E ~ Exp(1): P(E > t) = exp(-t), so P(E > -log keep) = keep.
    survives = jax.random.exponential(key, x.shape, dtype=x.dtype) > -math.log(keep)
    return jax.lax.select(survives, x / keep, jnp.zeros_like(x))


def _keys_per_layer(key):
    """{"layer1": k1, "layer2": k2}: one fresh key per dropout layer."""
    treedef = jax.tree.structure(dict.fromkeys(_DROPPED, 0))
    return jax.tree.unflatten(treedef, list(jax.random.split(key, len(_DROPPED))))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP, dropout after each hidden ReLU, one key per layer."""
    keys = _keys_per_layer(key)

    def apply(h, name):
        z = h @ params[name]["w"] + params[name]["b"]
        if name not in keys:
            return z
        return dropout(keys[name], jax.nn.relu(z), rate, train)

    return functools.reduce(apply, _LAYERS, x)
