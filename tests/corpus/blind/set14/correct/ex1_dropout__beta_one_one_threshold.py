# BLIND-SET: 14
# EXERCISE: ex1
# WHAT: The keep mask is drawn as Beta(1, 1) samples (uniform on [0, 1]) compared with 1-rate, survivors are multiplied by a precomputed reciprocal via jnp.where, and the forward pass loops over the hidden layers with keys from one jax.random.split(key, 2).
# SHOULD-SAY: Everything correct: per-element keep probability is 1-rate with survivors scaled by 1/(1-rate), train=False and rate=0 return x unchanged, the mask depends only on the key, each hidden layer gets its own key, dropout sits after the two hidden ReLUs only, and jit gives the same results.
"""Exercise 1 (variant): inverted dropout from a Beta(1, 1) coin."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: Beta(1, 1) is the uniform distribution on [0, 1]."""
    if (not train) or rate == 0:
        return x
    keep_prob = 1.0 - rate
    coin = jax.random.beta(key, 1.0, 1.0, shape=x.shape)
    scale = jnp.asarray(1.0 / keep_prob, dtype=x.dtype)
    return jnp.where(coin < keep_prob, x * scale, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP with dropout after each hidden ReLU."""
    layer_keys = jax.random.split(key, 2)
    h = x
    for i, name in enumerate(("layer1", "layer2")):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(layer_keys[i], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
