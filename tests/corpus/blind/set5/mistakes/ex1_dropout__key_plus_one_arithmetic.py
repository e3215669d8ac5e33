# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: instead of splitting, forward_with_dropout uses the incoming key itself for the first dropout layer and `key + 1` (integer arithmetic on the raw key, "next seed") for the second, so the caller's key is consumed directly and the second key is not derived with jax.random.split.
# SHOULD-SAY: ex1 forward_with_dropout fails the key-handling check: the incoming key is used directly by a dropout layer and the second key is made by adding 1 to the key array; derive one key per dropout layer with jax.random.split(key) and never use the parent key itself. dropout() itself is fine.
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
    key1 = key
    key2 = key + 1  # the next seed, so the second layer gets a different mask
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
