# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: dropout builds the keep mask as jnp.heaviside(keep - u, 0) from a uniform draw and multiplies by it; forward takes the two layer keys by indexing the split array.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout with a Heaviside step mask."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if rate == 0.0 or not train:
        return x
    keep = 1.0 - rate
    u = jax.random.uniform(key, x.shape, dtype=x.dtype)
    keep_mask = jnp.heaviside(keep - u, 0.0).astype(x.dtype)  # 1 where u < keep, else 0
    return (x / keep) * keep_mask


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP; dropout after the two hidden ReLUs, one key each."""
    keys = jax.random.split(key, num=2)
    h1 = jax.nn.relu(jnp.dot(x, params["layer1"]["w"]) + params["layer1"]["b"])
    h1 = dropout(keys[0], h1, rate, train=train)
    h2 = jax.nn.relu(jnp.dot(h1, params["layer2"]["w"]) + params["layer2"]["b"])
    h2 = dropout(keys[1], h2, rate, train=train)
    return jnp.dot(h2, params["layer3"]["w"]) + params["layer3"]["b"]
