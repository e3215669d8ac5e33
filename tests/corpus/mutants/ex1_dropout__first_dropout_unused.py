"""forward_with_dropout stores the first dropout's result under a new name and passes the undropped values on:
only the second hidden layer is dropped out. Both dropout calls happen, with their own keys and the right
shapes; the train-mode output, recomputed with those calls, shows the first one's result never reached the
output.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.dropout_output_unused", "hint": "then layer 2 reads h1",
          "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h1 = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    dropped1 = dropout(key1, h1, rate, train)  # noqa: F841 - the mistake: h1 goes on below
    h2 = jax.nn.relu(h1 @ params["layer2"]["w"] + params["layer2"]["b"])
    h2 = dropout(key2, h2, rate, train)
    return h2 @ params["layer3"]["w"] + params["layer3"]["b"]
