"""np.where builds the output: right eagerly (as a numpy array), but it fails on traced arrays under jax.jit."""

import jax
import jax.numpy as jnp
import numpy as np

EXPECT = {"check": "ex1.jit", "mistake": "numpy_on_tracer", "hint": "jax.numpy", "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return np.where(mask, x / keep, 0.0).astype(np.float32)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
