# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: forward_with_dropout drops entries of the hidden layers' weight matrices (DropConnect) instead of the hidden activations after the ReLU, so one mask is shared by every example in the batch.
# SHOULD-SAY: ex1 forward_with_dropout fails: dropout must be applied to the hidden activations after each ReLU (each element of each example gets its own coin flip), not to the weights; dropout() itself is fine.
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
    """The lesson's 784-256-128-10 MLP with dropout on each hidden layer."""
    key1, key2 = jax.random.split(key)
    w1 = dropout(key1, params["layer1"]["w"], rate, train)
    h = jax.nn.relu(x @ w1 + params["layer1"]["b"])
    w2 = dropout(key2, params["layer2"]["w"], rate, train)
    h = jax.nn.relu(h @ w2 + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
