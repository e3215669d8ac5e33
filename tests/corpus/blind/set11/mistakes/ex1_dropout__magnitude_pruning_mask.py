# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout zeroes the `rate` fraction of smallest-magnitude activations (a quantile threshold) instead of random coin flips, so the key is never used.
# SHOULD-SAY: ex1 dropout: the mask does not depend on the key (different keys give the same mask) and is a deterministic function of x, not independent per-element coin flips; scaling and fraction look right on generic inputs.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # drop the weakest `rate` fraction of units, keep the strongest
    threshold = jnp.quantile(jnp.abs(x), rate)
    mask = jnp.abs(x) > threshold
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
