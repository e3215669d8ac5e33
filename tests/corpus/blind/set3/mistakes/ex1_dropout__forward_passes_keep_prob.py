# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: forward_with_dropout passes the keep probability (1 - rate) to dropout, TF1 keep_prob style, so the MLP drops 1 - rate of the units (identical only at rate 0.5).
# SHOULD-SAY: in the MLP the dropout layers drop the wrong fraction (1 - rate instead of rate); pass rate, not the keep probability
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
    keep_prob = 1.0 - rate
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, keep_prob, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, keep_prob, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
