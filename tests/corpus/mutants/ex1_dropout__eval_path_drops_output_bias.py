"""The evaluation pass is written out separately from the training pass, and its last line leaves out layer3's
bias: train=False is not the plain forward pass, while training is right."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.eval_other_network", "max_failing": 1, "also": ["ex1.params_unchanged"],
          "hint": "what the evaluation pass left out"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    if not train or rate == 0.0:
        h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
        h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
        return h @ params["layer3"]["w"]
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
