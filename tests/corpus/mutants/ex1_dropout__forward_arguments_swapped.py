"""dropout itself is right, but forward_with_dropout calls it as dropout(h, key, ...)."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.forward_arguments_swapped", "hint": "the key first",
          "max_failing": 6, "also": ["ex1.jit", "ex1.separate_keys", "ex1.placement", "ex1.forward_keys",
                                     "ex1.params_unchanged"]}


def dropout(key, x, rate, train=True):
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
