# BLIND-SET: 19
# EXERCISE: ex1
# WHAT: dropout built from jax.random.uniform(key, shape) < keep and jax.lax.select with a precomputed reciprocal; the MLP is a loop over hidden layer names zipped with keys from one split
# SHOULD-SAY: full marks
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------

_HIDDEN = ("layer1", "layer2")


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not (train and rate > 0):
        return x
    keep = 1.0 - rate
    coin = jax.random.uniform(key, jnp.shape(x), dtype=x.dtype)
    survivors = jnp.asarray(x, dtype=x.dtype) / jnp.asarray(keep, dtype=x.dtype)
    return jax.lax.select(coin < keep, survivors, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    h = x
    for name, layer_key in zip(_HIDDEN, jax.random.split(key, len(_HIDDEN))):
        h = jax.nn.relu(jnp.dot(h, params[name]["w"]) + params[name]["b"])
        h = dropout(layer_key, h, rate, train)
    out = params["layer3"]
    return jnp.dot(h, out["w"]) + out["b"]
