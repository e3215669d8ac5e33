# BLIND-SET: 23
# EXERCISE: ex1
# WHAT: dropout calls jnp.atleast_2d(x) before drawing the mask, so in training mode a 1-D input of shape (n,) comes back as (1, n) (and a 0-d input as (1, 1)); 2-D inputs and the MLP are unaffected, and the train=False / rate=0 path still returns the original shape
# SHOULD-SAY: dropout must return an array shaped like x for any shape of x; your training path promotes a 1-D vector to a (1, n) row with jnp.atleast_2d and never undoes it, so the output shape differs from the input (and from the train=False output). Drop the atleast_2d: jax.random.bernoulli(key, keep, x.shape) already works for any shape.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    x = jnp.atleast_2d(x)  # make sure there is a batch axis
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
