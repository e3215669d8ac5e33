# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: The MLP loops over the two hidden layers and takes each dropout key with next() from an iterator over jax.random.split(key, 2) (a PRNG-sequence idiom); dropout keeps an element when a uniform draw is >= rate.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout with one PRNG key per layer, keys drawn from an iterator."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    survive = jax.random.uniform(key, x.shape) >= rate  # P(survive) = 1 - rate
    return jnp.where(survive, x / (1.0 - rate), 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = iter(jax.random.split(key, 2))  # one fresh key per dropout layer
    h = x
    for name in ("layer1", "layer2"):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(next(keys), h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
