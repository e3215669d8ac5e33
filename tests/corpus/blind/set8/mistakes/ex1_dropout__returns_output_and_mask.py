# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout returns a tuple (output, keep_mask) so the mask can be inspected (also on the train=False / rate=0 path); forward_with_dropout unpacks it and is right, but dropout() no longer returns an array shaped like x.
# SHOULD-SAY: ex1: dropout returns a tuple instead of an array, so every dropout() check errors or fails; forward_with_dropout checks pass.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x, jnp.ones(x.shape, dtype=bool)
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype), mask


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h, _ = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h, _ = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
