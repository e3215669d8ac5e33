"""The uniform draw is taken on [0, 2) (maxval=2.0, meant as a symmetric range) but compared with 1 - rate as if
it were on [0, 1): each element is kept with probability (1 - rate) / 2."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "", "max_failing": 1,
          "also": ["ex1.rescale", "ex1.identity", "ex1.per_element", "ex1.key_only_randomness", "ex1.jit"],
          "hint": "a fixed multiple of 1 - rate"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    u = jax.random.uniform(key, x.shape, minval=0.0, maxval=2.0)
    return jnp.where(u < keep, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
