# BLIND-SET: 27
# EXERCISE: ex1
# WHAT: dropout is declared as dropout(key, x, train=True, rate=0.5) (rate given a default and moved after train), so a call in the contract's order dropout(key, x, rate) binds the rate to train and always drops with rate 0.5: the zeroed fraction is 0.5 at every requested rate and survivors are scaled by 2. forward_with_dropout calls it by keyword and is unaffected; dropout(key, x, rate, False) and rate 0 still return x by accident.
# SHOULD-SAY: The signature must be dropout(key, x, rate, train=True), in that order: a positional call dropout(key, x, 0.3) puts 0.3 into train and leaves rate at its default 0.5. Put rate back as the third parameter (with no default, or at least before train).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, train=True, rate=0.5):
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
    h = dropout(key1, h, rate=rate, train=train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate=rate, train=train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
