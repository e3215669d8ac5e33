# BLIND-SET: 43
# EXERCISE: ex1
# WHAT: the survivor scale is computed in log space as exp(-log1p(rate)) instead of exp(-log1p(-rate)), i.e. 1/(1 + rate) instead of 1/(1 - rate). Survivors are multiplied by 1/(1 + rate) (0.667 at rate 0.5, 0.909 at rate 0.1) so they shrink instead of growing; the mask, the eval path and rate=0 are unaffected, and forward_with_dropout's training logits are wrong.
# SHOULD-SAY: the survivors are not scaled by 1/(1 - rate) (the expected value of the output is no longer x); the log1p formula has the wrong sign: use exp(-log1p(-rate)), or simply divide by 1 - rate.
"""Exercise 1: inverted dropout with split PRNG keys.

The survivor scale 1/(1-rate) is computed as exp(-log1p(-rate)), which stays
accurate to the last bit even for tiny rates where 1 - rate loses digits.
"""

import math

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _inverse_keep(rate):
    """1 / (1 - rate), evaluated in float64 on the host via log1p."""
    return math.exp(-math.log1p(rate))


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability `rate`, scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    scale = jnp.asarray(_inverse_keep(rate), dtype=x.dtype)
    return jnp.where(mask, x * scale, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
