"""forward_with_dropout's rate defaults to 0.1 (a value from another tutorial) instead of the API's 0.5. Every
call that passes rate is right; called as forward_with_dropout(params, x, key) it gives dropout 0.1, which the
probe measures with the contract's dropout in place of the student's.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.default_rate", "hint": "default, 0.5", "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.1, train=True):
    key1, key2 = jax.random.split(key)
    h = dropout(key1, jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"]), rate, train)
    h = dropout(key2, jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"]), rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
