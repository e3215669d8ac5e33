# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: the keep mask is a single-trial binomial draw (jax.random.binomial(key, 1, keep, x.shape)) multiplied in, and the scale is applied with jnp.multiply by a precomputed 1/keep; forward_with_dropout takes its two keys from one split array by index. Same semantics as the reference, different random API (so different masks).
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout, mask drawn as one Bernoulli trial per element."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if (not train) or rate == 0:
        return x
    keep = 1.0 - rate
    kept = jax.random.binomial(key, 1, keep, shape=x.shape, dtype=x.dtype)  # 0.0 or 1.0
    return jnp.multiply(x, kept) * (1.0 / keep)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 2)
    h = jax.nn.relu(jnp.dot(x, params["layer1"]["w"]) + params["layer1"]["b"])
    h = dropout(keys[0], h, rate, train)
    h = jax.nn.relu(jnp.dot(h, params["layer2"]["w"]) + params["layer2"]["b"])
    h = dropout(keys[1], h, rate, train)
    return jnp.dot(h, params["layer3"]["w"]) + params["layer3"]["b"]
