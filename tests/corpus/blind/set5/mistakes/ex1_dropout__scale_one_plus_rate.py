# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: survivors are multiplied by (1 + rate) instead of 1/(1 - rate) (a first-order approximation), so at rate 0.5 they are scaled by 1.5 instead of 2 and the expected value of the output shrinks.
# SHOULD-SAY: ex1 dropout fails the rescale check: survivors must be scaled by exactly 1/(1-rate) (2.0 at rate 0.5), not 1 + rate; the drop fraction, train=False and keys are fine.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; boost survivors to keep the mean."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x * (1.0 + rate), 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
