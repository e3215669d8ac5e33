# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout unpacks `batch, features = x.shape` to build the mask shape, so it only works on 2-D inputs; on a 1-D or 3-D array (the docstring says "any shape") it raises ValueError. On (B, F) inputs it is identical to the reference.
# SHOULD-SAY: dropout fails (error) on inputs that are not 2-D, e.g. a single vector or a (B, T, F) array; a good report names the hard-coded 2-D mask shape and says to draw the mask with `x.shape`. 2-D checks and the MLP checks pass.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    batch, features = x.shape
    mask = jax.random.bernoulli(key, keep, (batch, features))
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
