"""dropout draws a flat mask over jnp.ravel(x) (row-major) and reshapes the result back with order="F"
(column-major): every survivor is rightly scaled, but in another element's place on any x with two or more axes.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.rescale", "mistake": "ex1.survivors_moved", "hint": "its own place", "max_failing": 1}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    flat = jnp.ravel(x)
    mask = jax.random.bernoulli(key, keep, flat.shape)
    return jnp.reshape(jnp.where(mask, flat / keep, 0.0), x.shape, order="F").astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
