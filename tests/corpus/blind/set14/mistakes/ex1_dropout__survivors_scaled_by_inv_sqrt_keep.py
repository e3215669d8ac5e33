# BLIND-SET: 14
# EXERCISE: ex1
# WHAT: Survivors are scaled by 1/sqrt(1-rate) (a variance-preserving rescale) instead of 1/(1-rate).
# SHOULD-SAY: dropout zeroes the right fraction of elements and handles train=False/rate=0, but the survivors are scaled by 1/sqrt(1-rate) instead of 1/(1-rate), so the expected value is not preserved; forward_with_dropout in training mode inherits the wrong scale (its train=False path is right). Use x / (1 - rate).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    # Rescale so the variance of the activations is preserved.
    return jnp.where(mask, x / jnp.sqrt(keep), 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
