# BLIND-SET: 12
# EXERCISE: ex1
# WHAT: forward_with_dropout splits keys sequentially but derives the second layer's key by splitting the subkey already consumed by the first dropout layer (split(sub) instead of split(key)).
# SHOULD-SAY: Key discipline error in forward_with_dropout: the subkey given to the first dropout layer is used again (split) to make the second layer's key, so one key is used for two things; the fix is to split the carried parent key, not the consumed subkey. The masks still look statistically valid and differ between layers, dropout() itself is correct, dropout placement and train=False behaviour are fine.
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
    key, sub = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(sub, h, rate, train)
    key, sub = jax.random.split(sub)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(sub, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
