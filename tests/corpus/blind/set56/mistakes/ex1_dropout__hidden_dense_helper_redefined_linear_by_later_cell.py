# BLIND-SET: 56
# EXERCISE: ex1
# WHAT: forward_with_dropout calls a module-level helper `dense(layer, h)` that an early cell defined as ReLU(h @ w + b); a later cell (written for the output layer) redefines `dense` as the plain affine map, so the later definition wins and both hidden layers of forward_with_dropout have no ReLU. Logits differ from the reference for train=True and train=False (train=False no longer equals forward).
# SHOULD-SAY: The hidden layers in forward_with_dropout are not followed by ReLU: the helper `dense` you call is redefined further down the file without the ReLU (the later definition wins at call time). Give the two helpers different names (e.g. `dense_relu` and `linear`) or apply jax.nn.relu explicitly after each hidden layer.
"""Exercise 1: dropout with split PRNG keys (pasted from my Colab notebook)."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- cell 3: small helpers ------------------------------------------------------


def dense(layer, h):
    """hidden layer: affine + relu"""
    return jax.nn.relu(h @ layer["w"] + layer["b"])


# --- cell 4: dropout ------------------------------------------------------------


def dropout(key, x, rate, train=True):
    if (not train) or rate == 0:
        return x
    keep_prob = 1.0 - rate
    keep = jax.random.bernoulli(key, keep_prob, shape=x.shape)
    out = jnp.where(keep, x / keep_prob, jnp.zeros_like(x))
    return out.astype(x.dtype)


# quick check on a toy array
_demo = jnp.ones((4, 8))
print("zeroed fraction:", float(jnp.mean(dropout(jax.random.PRNGKey(0), _demo, 0.5) == 0)))


# --- cell 5: MLP with dropout -------------------------------------------------


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k_hidden1, k_hidden2 = jax.random.split(key)
    h = dense(params["layer1"], x)
    h = dropout(k_hidden1, h, rate, train)
    h = dense(params["layer2"], h)
    h = dropout(k_hidden2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- cell 6: output layer helper for the logits plot ---------------------------


def dense(layer, h):
    """output layer: just the affine map, no activation on the logits"""
    return h @ layer["w"] + layer["b"]
