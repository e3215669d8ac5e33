# BLIND-SET: 18
# EXERCISE: ex1
# WHAT: the second hidden ReLU was indented into the `if train:` block with its dropout, so with train=False layer 2's output reaches layer 3 without ReLU.
# SHOULD-SAY: dropout itself (rate, 1/(1-rate) scaling, per-element coins, keys) and the training-mode forward pass are right, but forward_with_dropout(train=False) differs from the plain forward pass because the ReLU after layer2 only runs when train is True; apply both ReLUs unconditionally and put only the dropout calls under the train switch (or let dropout handle train itself).
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
    keep_prob = 1.0 - rate
    keep = jax.random.uniform(key, x.shape) < keep_prob
    return jnp.where(keep, x / keep_prob, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    k1, k2 = jax.random.split(key)

    h = x @ params["layer1"]["w"] + params["layer1"]["b"]
    h = jax.nn.relu(h)
    if train:
        h = dropout(k1, h, rate)

    h = h @ params["layer2"]["w"] + params["layer2"]["b"]
    if train:
        h = jax.nn.relu(h)
        h = dropout(k2, h, rate)

    return h @ params["layer3"]["w"] + params["layer3"]["b"]
