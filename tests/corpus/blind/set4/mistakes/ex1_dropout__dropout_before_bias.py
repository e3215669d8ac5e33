# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: Dropout is applied to the matmul output before the bias is added and the ReLU taken, so a dropped unit becomes relu(b) instead of 0.
# SHOULD-SAY: dropout must act on the hidden activations after ReLU (bias included); dropped units are not zero here
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


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
    h = dropout(key1, x @ params["layer1"]["w"], rate, train)
    h = jax.nn.relu(h + params["layer1"]["b"])
    h = dropout(key2, h @ params["layer2"]["w"], rate, train)
    h = jax.nn.relu(h + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
