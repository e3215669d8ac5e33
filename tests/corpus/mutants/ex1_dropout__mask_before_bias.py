"""Dropout on the first layer's x @ w, before its bias and ReLU: a dropped unit still gets relu(b).

Masks applied to values with negative elements, and an output that differs from dropout after the ReLU."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.placement", "mistake": "ex1.dropout_before_relu", "hint": "after the activation",
          "max_failing": 2, "also": ["ex1.eval_forward"]}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(dropout(key1, x @ params["layer1"]["w"], rate, train) + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
