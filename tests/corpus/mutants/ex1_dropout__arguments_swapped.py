"""dropout's parameters written as (x, key, rate, train): the key and the array trade places.

The forward pass calls it consistently (dropout(h, k, ...)), so only dropout's own
checks see the mistake; the others need a working mask and are skipped.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "ex1.arguments_swapped", "hint": "(key, x, rate",
          "max_failing": 1, "also": ["ex1.rescale", "ex1.identity", "ex1.per_element", "ex1.key_only_randomness",
                                     "ex1.jit"]}


def dropout(x, key, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k1, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(h, k1, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(h, k2, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
