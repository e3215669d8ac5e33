# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout builds its mask as `jax.random.normal(key, x.shape) > rate` instead of using uniform/bernoulli noise, so the probability of keeping an element is P(N(0,1) > rate) (about 0.31 at rate 0.5, 0.46 at rate 0.1) rather than 1 - rate, while survivors are still scaled by 1/(1-rate).
# SHOULD-SAY: ex1 dropout fails the drop-fraction check: the fraction of zeroed elements does not match `rate` (too many are dropped) because the mask thresholds Gaussian noise; use jax.random.bernoulli(key, 1 - rate, x.shape) or uniform noise. Rescaling, train=False and key handling are fine.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    noise = jax.random.normal(key, x.shape)
    mask = noise > rate
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
