# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: An element is kept when a geometric draw with success probability 1-rate succeeds on the first trial (P = 1-rate); survivors are multiplied by the reciprocal of keep.
# SHOULD-SAY: full marks for ex1; every check of ex1 passes.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    keep_mask = jax.random.geometric(key, keep, x.shape) == 1  # success on the first trial
    return (x * keep_mask * (1.0 / keep)).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
