# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: the survivor scale is computed as `1 // keep` (floor division) instead of `1 / keep`, which is right only when 1/(1-rate) is a whole number (rate 0.5, 0.8) and truncates it otherwise (1 instead of 1.11 at rate 0.1, 1 instead of 1.43 at rate 0.3, 2 instead of 2.5 at rate 0.6).
# SHOULD-SAY: ex1 dropout fails the rescale check at rates such as 0.1, 0.3 or 0.6: survivors must be multiplied by exactly 1/(1-rate); `1 // (1 - rate)` is floor division and truncates the factor. The drop fraction, train=False and keys are fine.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    scale = 1 // keep
    return jnp.where(mask, x * scale, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
