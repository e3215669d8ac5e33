# BLIND-SET: 12
# EXERCISE: ex1
# WHAT: forward_with_dropout is written for one example and vmapped over the batch with the same key closed over, so every example in the batch gets the same dropout masks.
# SHOULD-SAY: In the MLP the dropout masks are shared across the batch: vmapping the single-example forward pass with one un-split key gives every row identical masks (split the key per example or draw the mask for the whole batch). dropout() called directly is correct (per-element coin flips, scaling, identity paths), placement after each hidden ReLU is right, the two layers use different keys, and train=False equals the plain forward pass.
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

    def one_example(xi):
        key1, key2 = jax.random.split(key)
        h = jax.nn.relu(xi @ params["layer1"]["w"] + params["layer1"]["b"])
        h = dropout(key1, h, rate, train)
        h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
        h = dropout(key2, h, rate, train)
        return h @ params["layer3"]["w"] + params["layer3"]["b"]

    return jax.vmap(one_example)(x)
