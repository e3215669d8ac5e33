"""The second hidden layer's activation is a logistic written out by hand, 1 / (1 + exp(-z)), where the lesson has
ReLU; the first layer's is ReLU. Measured one layer at a time, the activation after layer 2 is a sigmoid: the
report names the layer and the curve."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.activation_not_relu", "max_failing": 1,
          "also": ["ex1.params_unchanged"], "hint": "a ReLU after each hidden layer"}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    z = h @ params["layer2"]["w"] + params["layer2"]["b"]
    h = 1.0 / (1.0 + jnp.exp(-z))
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
