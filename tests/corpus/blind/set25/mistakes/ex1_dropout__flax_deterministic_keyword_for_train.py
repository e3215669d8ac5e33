# BLIND-SET: 25
# EXERCISE: ex1
# WHAT: dropout's fourth parameter is Flax's `deterministic=False` instead of `train=True`. forward_with_dropout passes `not train` and is correct, but dropout(key, x, rate, train=False) raises TypeError (unexpected keyword), and dropout(key, x, rate, False) positionally means deterministic=False, so dropout is applied when the caller asked for it to be off.
# SHOULD-SAY: The exercise's API is dropout(key, x, rate, train=True), where train=False switches dropout off; Flax's nn.Dropout uses the opposite flag `deterministic`. Rename the parameter back to `train` and return x unchanged when `not train`.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, deterministic=False):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if deterministic or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, deterministic=not train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, deterministic=not train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
