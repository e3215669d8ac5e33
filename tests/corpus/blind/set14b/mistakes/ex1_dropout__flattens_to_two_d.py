# BLIND-SET: 14
# EXERCISE: ex1
# WHAT: dropout flattens x to (x.shape[0], -1) to draw a (batch, features) mask and never reshapes back, so any input that is not 2-D comes back with the wrong shape (1-D -> (n, 1), 3-D -> (B, T*D), 0-D crashes).
# SHOULD-SAY: On 2-D inputs (and so in forward_with_dropout) everything is right, but dropout must accept an array of any shape and return one shaped like x: for a 1-D or 3-D input it returns a flattened (n, 1) / (B, T*D) array; draw the mask with shape x.shape (or reshape the result back to x.shape).
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
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # Work on a (batch, features) view, like a Flatten layer would.
    x2 = x.reshape(x.shape[0], -1)
    mask = jax.random.bernoulli(key, keep, x2.shape)
    return jnp.where(mask, x2 / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
