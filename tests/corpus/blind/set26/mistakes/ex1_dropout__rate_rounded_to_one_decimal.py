# BLIND-SET: 26
# EXERCISE: ex1
# WHAT: dropout first does rate = round(rate, 1) "to get rid of float noise like 0.30000000000000004"; the rates the notebook used (0.1, 0.2, 0.5) are untouched, but 0.25 drops 20%, 0.05 drops 10%, 0.01 becomes 0 (no dropout at all) and 0.99 becomes 1.0 (everything zeroed), survivors scaled for the wrong rate.
# SHOULD-SAY: the zeroed fraction does not match `rate` for rates with more than one decimal (0.25, 0.05, 0.01, 0.99...) because the rate is rounded to one decimal before use; use `rate` exactly as given (keep = 1 - rate) for both the mask and the 1/(1-rate) scale.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    rate = round(rate, 1)  # avoid float noise such as 1 - 0.7 = 0.30000000000000004
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
