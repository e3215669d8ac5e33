# BLIND-SET: 25
# EXERCISE: ex1
# WHAT: survivors are scaled by n / (n - int(rate * n)) with n = x.shape[-1], an integer count of "kept units", instead of 1 / (1 - rate). int() truncates, so the scale is only exact when rate * n is a whole number (e.g. rate 0.5 with an even width); at rate 0.1 on 256 units it is 256/231 = 1.1082 instead of 1.1111, and it changes with the width.
# SHOULD-SAY: Inverted dropout scales survivors by exactly 1 / (1 - rate), a float that does not depend on the layer width; rounding the expected number of kept units to an integer biases the scale. Use x / (1 - rate) (or jnp.where(mask, x / keep, 0)).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    n_units = x.shape[-1]
    n_kept = n_units - int(rate * n_units)  # units kept per row
    return jnp.where(mask, x * n_units / n_kept, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
