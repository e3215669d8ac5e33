# BLIND-SET: 12
# EXERCISE: ex1
# WHAT: The keep mask is chi-square(2) noise above -2*log(keep) (its survival function is exp(-t/2) = keep); keys for the two dropout layers come from one split, unpacked from a (2, ...) key array by indexing.
# SHOULD-SAY: Everything correct: zero fraction matches rate, survivors scaled by exactly 1/(1-rate), x returned unchanged when train=False or rate=0, independent per-element coin flips depending only on the key, distinct keys per layer, dropout after each hidden ReLU only, same answers under jit.
"""Exercise 1: dropout with split PRNG keys (chi-square survival mask)."""

import math

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout; chi2(2) is exponential with mean 2, so P(X > t) = exp(-t / 2)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    threshold = -2.0 * math.log(keep)
    survived = jax.random.chisquare(key, 2.0, x.shape) > threshold
    return jnp.where(survived, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 2)
    layer1, layer2, layer3 = (params[f"layer{i}"] for i in (1, 2, 3))
    h = dropout(keys[0], jax.nn.relu(x @ layer1["w"] + layer1["b"]), rate, train)
    h = dropout(keys[1], jax.nn.relu(h @ layer2["w"] + layer2["b"]), rate, train)
    return h @ layer3["w"] + layer3["b"]
