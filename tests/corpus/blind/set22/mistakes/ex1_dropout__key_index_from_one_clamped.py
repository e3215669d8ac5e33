# BLIND-SET: 22
# EXERCISE: ex1
# WHAT: forward_with_dropout splits the key into 2 but indexes the split keys from 1 (keys[1], keys[2]); JAX clamps the out-of-range keys[2] to keys[1], so both dropout layers silently use the same key.
# SHOULD-SAY: dropout itself is right (rate, 1/(1-rate) scaling, train=False/rate=0, per-element mask) and the dropouts sit after the two hidden ReLUs, but both dropout layers get the same key: keys = split(key, 2) is indexed with 1 and 2, and JAX clamps the out-of-bounds index 2 to 1 instead of raising. Index the split keys from 0 (keys[0], keys[1]) or unpack them (k1, k2 = jax.random.split(key)).
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
    keys = jax.random.split(key, 2)  # one key per hidden layer
    h = x
    for i in (1, 2):  # hidden layers layer1, layer2
        layer = params[f"layer{i}"]
        h = jax.nn.relu(h @ layer["w"] + layer["b"])
        h = dropout(keys[i], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
