"""forward_with_dropout divides each dropout's output by (1 - rate) once more ("inverted dropout scales the
survivors"), so in train mode the hidden values are scaled twice. dropout itself, eval mode and the masks are
right; the train-mode output, recomputed with the keys the forward pass gave its dropout calls, is not.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "", "hint": "no second", "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    scale = 1.0 / (1.0 - rate) if train else 1.0
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train) * scale
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train) * scale
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
