"""Dropout on each hidden layer's values before its ReLU, not after.

The masks have the right shapes, (B, 256) and (B, 128), and their own keys; only the place differs. The masks
are measured where they meet the data: those values still have negative elements, so the report says the
mask came before the ReLU. The outputs equal relu(dropout(z)) = dropout(relu(z)) in distribution, and even
element by element (a zero stays zero either way), so every other check passes."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.placement", "mistake": "ex1.dropout_before_relu", "hint": "after the activation",
          "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = dropout(key1, x @ params["layer1"]["w"] + params["layer1"]["b"], rate, train)
    h = jax.nn.relu(h)
    h = dropout(key2, h @ params["layer2"]["w"] + params["layer2"]["b"], rate, train)
    h = jax.nn.relu(h)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
