# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout splits the key it is given and uses the subkey, so forward_with_dropout passes the same incoming key to both layers, believing the split inside dropout makes them independent.
# SHOULD-SAY: both dropout layers receive the same key (one key used twice); split the key in forward_with_dropout and give each layer its own
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    _, subkey = jax.random.split(key)  # never use the key itself, always a fresh subkey
    mask = jax.random.bernoulli(subkey, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
