# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: classic (non-inverted) dropout from the original paper: survivors are not rescaled while training, and with train=False the activations are multiplied by keep=1-rate.
# SHOULD-SAY: ex1 fails the rescale check (survivors equal x, not x/(1-rate)) and the train=False identity check (returns x*(1-rate)); forward_with_dropout(train=False) no longer equals forward.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if rate == 0.0:
        return x
    keep = 1.0 - rate
    if not train:
        # original dropout: scale the activations down at test time
        return (x * keep).astype(x.dtype)
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
