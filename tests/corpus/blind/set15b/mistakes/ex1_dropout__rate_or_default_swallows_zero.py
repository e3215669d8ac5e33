# BLIND-SET: 15
# EXERCISE: ex1
# WHAT: dropout gives `rate` a None default and fills it in with `rate = rate or 0.5` before the rate == 0 check, so an explicit rate of 0 (falsy) is replaced by the lesson's 0.5.
# SHOULD-SAY: At every non-zero rate dropout is right (zero fraction, exact 1/(1-rate) rescale, per-element coins, keys, train=False), and the MLP wiring is right, but rate=0 does not return x unchanged: `rate or 0.5` turns 0.0 into 0.5, so half the elements are zeroed and the rest doubled (forward_with_dropout(rate=0) is affected too). Test for a missing value with `if rate is None:` (or keep rate a required argument) so that 0 stays 0.
"""Exercise 1: inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate=None, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    rate = rate or 0.5  # no rate given: use the lesson's 0.5
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
