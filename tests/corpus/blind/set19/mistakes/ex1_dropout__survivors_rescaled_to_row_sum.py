# BLIND-SET: 19
# EXERCISE: ex1
# WHAT: dropout rescales the survivors of each row by (row sum before dropout) / (row sum after dropout) instead of by the fixed factor 1/(1-rate)
# SHOULD-SAY: Mask, key handling, train=False and the MLP placement are right, but survivors are not scaled by exactly 1/(1-rate): your data-dependent per-row factor (sum before / sum after) only matches it on average; multiply the survivors by 1/(1-rate).
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
    """Inverted dropout: drop with probability `rate`, keep the activation level."""
    if (not train) or rate == 0:
        return x
    survive = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    dropped = x * survive
    # "keep the expected value unchanged": make every row carry the same total
    # activation as before, so the next layer sees the same overall signal.
    before = x.sum(axis=-1, keepdims=True)
    after = dropped.sum(axis=-1, keepdims=True)
    factor = jnp.where(after == 0, 0.0, before / jnp.where(after == 0, 1.0, after))
    return (dropped * factor).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    k_hidden1, k_hidden2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k_hidden1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k_hidden2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
