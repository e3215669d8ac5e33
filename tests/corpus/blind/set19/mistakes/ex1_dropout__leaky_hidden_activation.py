# BLIND-SET: 19
# EXERCISE: ex1
# WHAT: forward_with_dropout uses leaky ReLU (slope 0.01) on the hidden layers instead of the lesson's ReLU, so even train=False differs from forward
# SHOULD-SAY: dropout itself is correct and the keys and placement are right, but forward_with_dropout(train=False) does not equal forward: you use leaky_relu (jnp.maximum(z, 0.01*z)) where the lesson's MLP uses ReLU; use jax.nn.relu after each hidden layer.
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


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape).astype(x.dtype)
    return x * mask / keep


def _dense(layer, h):
    return jnp.dot(h, layer["w"]) + layer["b"]


def _act(z):
    # leaky ReLU so that no hidden unit dies during training
    return jnp.maximum(z, 0.01 * z)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key, k1 = jax.random.split(key)
    key, k2 = jax.random.split(key)
    h1 = dropout(k1, _act(_dense(params["layer1"], x)), rate, train)
    h2 = dropout(k2, _act(_dense(params["layer2"], h1)), rate, train)
    return _dense(params["layer3"], h2)
