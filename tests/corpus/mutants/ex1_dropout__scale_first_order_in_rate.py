"""The survivors are scaled by 1 + rate, the first terms of 1 / (1 - rate) = 1 + rate + rate**2 + ..., "close
enough for small rates": at rate 0.5 they are scaled by 1.5, not 2. The report measures the law the scale follows
in rate; no registered mistake is named.
"""

EXPECT = {"check": "ex1.rescale", "mistake": "", "hint": "1 / (1 - rate)", "max_failing": 1}

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x * (1.0 + rate), 0.0).astype(x.dtype)  # 1 / (1 - rate) to first order


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
