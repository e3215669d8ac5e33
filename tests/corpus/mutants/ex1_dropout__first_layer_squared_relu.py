"""The first hidden layer's activation is a squared ReLU (jnp.square(jnp.maximum(z, 0))), a curve no library
activation gives; the second's is ReLU. Measured one layer at a time, the activation after layer 1 is 0 below 0 and
9 at 3: the report describes that curve and says which layer has it, without naming a library function."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "", "max_failing": 1,
          "also": ["ex1.params_unchanged"], "hint": "activation after hidden layer 1 is not relu"}


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
    h = jnp.square(jnp.maximum(x @ params["layer1"]["w"] + params["layer1"]["b"], 0.0))
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
