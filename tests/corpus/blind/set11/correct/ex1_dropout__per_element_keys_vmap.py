# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: dropout splits the key into one key per element and vmaps a scalar jax.random.bernoulli over them, then reshapes the coins to x.shape; the MLP indexes a (2, ...) key array.
# SHOULD-SAY: full marks
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    element_keys = jax.random.split(key, x.size)
    coins = jax.vmap(lambda k: jax.random.bernoulli(k, keep))(element_keys)
    mask = coins.reshape(x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    layer_keys = jax.random.split(key, 2)
    key1, key2 = layer_keys[0], layer_keys[1]
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
