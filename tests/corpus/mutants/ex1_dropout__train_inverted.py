"""The train test is inverted (`if train or rate == 0: return x`): train mode never drops, eval mode does.

Nothing is zeroed in train mode, so ex1.zero_fraction earns nothing and the
properties of a mask (rescale, identity, per_element, key_only_randomness, jit)
are not judged: the mistake is charged once.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "ex1.train_inverted", "hint": "train test is inverted",
          "max_failing": 1,
          "also": ["ex1.rescale", "ex1.identity", "ex1.per_element", "ex1.key_only_randomness", "ex1.jit"]}


def dropout(key, x, rate, train=True):
    if train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
