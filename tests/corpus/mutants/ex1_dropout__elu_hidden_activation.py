"""The hidden activation is ELU, not ReLU, in both passes: dropout sits after the activation as asked, but its
masks meet negative values, and train=False is not the plain forward pass. The activations, measured one layer at
a time on a grid, are ELU after both layers: the report names that, and leaves where the masks go unjudged."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.activation_not_relu", "max_failing": 1,
          "also": ["ex1.placement", "ex1.params_unchanged"], "hint": "a ReLU after each hidden layer"}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return jnp.where(jax.random.bernoulli(key, keep, x.shape), x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.elu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.elu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
