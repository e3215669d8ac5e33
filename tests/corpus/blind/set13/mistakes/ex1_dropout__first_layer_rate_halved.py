# BLIND-SET: 13
# EXERCISE: ex1
# WHAT: forward_with_dropout uses a 'gentler' dropout rate of rate/2 on the first hidden layer (tapered rates habit) and the full rate only on the second.
# SHOULD-SAY: dropout() is correct (zero fraction, rescale, train=False/rate=0 identity, per-element masks, key use, jit); forward_with_dropout keeps the right placement, separate keys and train=False == plain forward, but the first hidden layer drops only about rate/2 of its units (scaled by 1/(1-rate/2)) instead of `rate`: the rate argument must be used unchanged at both dropout layers.
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
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate / 2, train)  # lighter dropout near the input
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
