# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout is the SELU-network AlphaDropout: dropped units are set to the negative saturation value -1.758 and an affine correction a*x+b is applied instead of zeroing and scaling by 1/(1-rate).
# SHOULD-SAY: ex1 dropout fails the zero-fraction and rescale checks (no element is zero; survivors are a*x+b, not x/(1-rate)); train=False/rate=0 still pass; forward_with_dropout in training mode differs from inverted dropout.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    # AlphaDropout (self-normalising nets): dropped units go to the SELU
    # saturation value, then an affine map keeps mean and variance unchanged.
    alpha_p = -1.7580993408473766
    a = (keep + alpha_p**2 * keep * rate) ** -0.5
    b = -a * alpha_p * rate
    return (a * jnp.where(mask, x, alpha_p) + b).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
