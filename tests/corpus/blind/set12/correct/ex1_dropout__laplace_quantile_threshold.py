# BLIND-SET: 12
# EXERCISE: ex1
# WHAT: The keep mask comes from Laplace(0, 1) noise compared with the Laplace quantile of keep = 1 - rate (computed in Python with math.log); the MLP runs its two hidden layers in a loop zipped with the split keys.
# SHOULD-SAY: Everything correct: each element is kept with probability 1 - rate (P(Z < F^-1(keep)) = keep), survivors scaled by 1/(1-rate), identity when train=False or rate=0, per-element masks driven only by the key, one fresh key per dropout layer, dropout only after the hidden ReLUs, jit-compatible.
"""Exercise 1: dropout with split PRNG keys (Laplace-quantile mask)."""

import math

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _laplace_quantile(p):
    """Inverse CDF of the standard Laplace distribution."""
    if p < 0.5:
        return math.log(2.0 * p)
    return -math.log(2.0 * (1.0 - p))


def dropout(key, x, rate, train=True):
    """Inverted dropout: keep where Laplace noise falls below the keep-quantile."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    noise = jax.random.laplace(key, x.shape)
    kept = noise < _laplace_quantile(keep)
    return jnp.where(kept, x / keep, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    h = x
    for name, sub in zip(("layer1", "layer2"), jax.random.split(key, 2)):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(sub, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
