# BLIND-SET: 18
# EXERCISE: ex1
# WHAT: forward_with_dropout converts `rate` into a per-layer rate 1 - sqrt(1 - rate) so that "a unit survives both layers with probability 1 - rate", instead of using `rate` at each hidden layer.
# SHOULD-SAY: dropout() is correct (fraction zeroed, 1/(1-rate) rescale, own coin per element, keys) and train=False equals the plain forward pass, but in forward_with_dropout each hidden layer drops only 1 - sqrt(1 - rate) of its units (about 29% at rate=0.5); `rate` is the per-layer dropout probability, so pass it unchanged to both dropout calls.
"""Exercise 1: dropout with split PRNG keys."""

import math

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability `rate`, rescale the rest."""
    if not train or rate == 0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    # Two dropout layers in a row: a unit's signal has to survive both, so
    # split the overall drop probability between them:
    # (1 - per_layer) ** 2 == 1 - rate.
    per_layer = 1.0 - math.sqrt(1.0 - rate)
    key_a, key_b = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key_a, h, per_layer, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key_b, h, per_layer, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
