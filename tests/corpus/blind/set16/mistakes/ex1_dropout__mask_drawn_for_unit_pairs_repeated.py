# BLIND-SET: 16
# EXERCISE: ex1
# WHAT: dropout draws one coin per pair of neighbouring features (mask of half the last dimension, then jnp.repeat by 2), so adjacent units are always dropped or kept together.
# SHOULD-SAY: the drop fraction matches `rate` on average, survivors are scaled by 1/(1-rate), train=False/rate=0 are handled and the keys are split correctly, but the elements are not dropped independently: features 2k and 2k+1 share one coin flip (and an odd last dimension would fail); draw the mask with the full shape x.shape so every element gets its own coin.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # half as many random numbers: one coin for each pair of units
    half = x.shape[:-1] + (x.shape[-1] // 2,)
    mask = jnp.repeat(jax.random.bernoulli(key, keep, half), 2, axis=-1)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
