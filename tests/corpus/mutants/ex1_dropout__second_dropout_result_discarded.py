"""forward_with_dropout loops over its hidden layers and keeps the dropped values in a list it never reads:
the output layer takes the last hidden activation as it was before the second dropout."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.dropout_output_unused", "hint": "likewise for layer 3",
          "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    keys = jax.random.split(key)
    dropped = []
    h = x
    for i, name in enumerate(("layer1", "layer2")):
        h = jax.nn.relu((dropped[-1] if dropped else h) @ params[name]["w"] + params[name]["b"])
        dropped.append(dropout(keys[i], h, rate, train))
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
