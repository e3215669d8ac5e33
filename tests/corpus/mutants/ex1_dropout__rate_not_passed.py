"""forward_with_dropout calls dropout with the lesson's 0.5 written in, not its rate argument."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.rate_not_passed", "hint": "pass rate through",
          "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k1, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, 0.5, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, 0.5, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
