# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout's signature defaults to `train=False` instead of `train=True`, so a call without `train` (dropout(key, x, 0.5)) returns x unchanged: no dropout at all. forward_with_dropout always passes train explicitly, so the MLP is unaffected.
# SHOULD-SAY: the dropout checks that call dropout(key, x, rate) without `train` fail (nothing is zeroed, zero fraction 0 instead of `rate`); a good report says the default of `train` must be True per the API. MLP checks pass.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=False):
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
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
