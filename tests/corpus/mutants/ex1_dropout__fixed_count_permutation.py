"""Dropout that zeroes exactly round(rate * n) elements, chosen by a random permutation.

Every rate's fraction is right on average and to the element, the survivors are rescaled, and the key
decides which elements go; only the count never varies, as independent coin flips do. ex1.per_element
measures the counts of five calls."""

EXPECT = {"check": "ex1.per_element", "mistake": "ex1.fixed_drop_count", "hint": "independent coin",
          "max_failing": 1}

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    dropped = jax.random.permutation(key, x.size)[: round(rate * x.size)]
    mask = jnp.ones(x.size, dtype=bool).at[dropped].set(False).reshape(x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
