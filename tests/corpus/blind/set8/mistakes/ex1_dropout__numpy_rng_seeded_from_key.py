# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: The mask comes from numpy.random.default_rng seeded with the two words of the JAX key, so eager results are reproducible and key-dependent, but converting the key to NumPy fails on a tracer: dropout and forward_with_dropout raise under jax.jit.
# SHOULD-SAY: ex1: dropout draws its mask with NumPy (seeded from the key) instead of jax.random; it looks right eagerly but fails under jax.jit (tracer converted to NumPy).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp
import numpy as np


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # reproducible: seed NumPy's generator from the JAX key
    rng = np.random.default_rng([int(word) for word in np.asarray(key)])
    mask = rng.random(x.shape) < keep
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
