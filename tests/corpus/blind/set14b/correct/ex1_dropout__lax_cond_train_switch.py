# BLIND-SET: 14
# EXERCISE: ex1
# WHAT: forward_with_dropout chooses between the dropout path and the plain `forward` with jax.lax.cond on `train`, and dropout thresholds a uniform draw on the drop side (`u < rate` -> 0) multiplying by a precomputed 1/(1-rate).
# SHOULD-SAY: Full marks: dropout zeroes each element independently with probability rate and scales survivors by 1/(1-rate), returns x unchanged for train=False or rate=0, depends only on its key; the MLP splits the key into one key per dropout layer, applies dropout only after the hidden ReLUs, equals `forward` with train=False and agrees under jax.jit.
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if (not train) or rate == 0.0:
        return x
    scale = 1.0 / (1.0 - rate)
    u = jax.random.uniform(key, x.shape, dtype=x.dtype)
    return jnp.where(u < rate, jnp.zeros_like(x), x * scale)


def _train_forward(params, x, key, rate):
    k_hidden1, k_hidden2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k_hidden1, h, rate, True)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k_hidden2, h, rate, True)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    return jax.lax.cond(
        bool(train),
        lambda: _train_forward(params, x, key, rate),
        lambda: forward(params, x),
    )
