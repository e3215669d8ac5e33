"""Dropout after the first hidden layer only: the second hidden layer is never dropped.

With one mask there is no second key to judge, so ex1.separate_keys is not
judged; the mistake is charged in ex1.placement.
"""

import jax
import jax.numpy as jnp
import numpy as np

EXPECT = {"check": "ex1.placement", "mistake": "ex1.placement", "hint": "after each of the two hidden ReLUs", "max_failing": 1, "also": ["ex1.separate_keys"]}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
