# BLIND-SET: 30
# EXERCISE: ex1
# WHAT: forward_with_dropout gets its per-layer keys with jnp.split(key, 2) instead of jax.random.split(key): that cuts the uint32[2] key into two uint32[1] halves, which are not valid PRNG keys, so every train=True call raises TypeError inside jax.random.bernoulli (train=False still works because dropout returns before drawing).
# SHOULD-SAY: jnp.split slices an array; it does not derive new random keys. Use key1, key2 = jax.random.split(key) to get two independent, valid keys, one per dropout layer.
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
    # Split the key into one sub-key per dropout layer (two hidden layers).
    key1, key2 = jnp.split(key, 2)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
