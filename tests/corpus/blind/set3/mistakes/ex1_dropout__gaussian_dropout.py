# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: Implemented Gaussian (multiplicative-noise) dropout, x * (1 + sigma * N(0,1)) with sigma = sqrt(rate/(1-rate)), instead of zeroing elements.
# SHOULD-SAY: nothing is zeroed: dropout must set elements to 0 with probability rate and scale survivors by 1/(1-rate), not add Gaussian noise
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    # Gaussian dropout: same mean and variance as Bernoulli dropout, but smooth
    sigma = jnp.sqrt(rate / (1.0 - rate))
    noise = 1.0 + sigma * jax.random.normal(key, x.shape)
    return (x * noise).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
