# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: equinox-style dropout (`q = 1 - lax.stop_gradient(rate)`) and a loop over the two hidden layers with `keys = jax.random.split(key, 2)`.
# SHOULD-SAY: full marks
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    q = 1 - jax.lax.stop_gradient(rate)
    mask = jax.random.bernoulli(key, q, x.shape)
    return jnp.where(mask, x / q, 0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 2)
    h = x
    for i, name in enumerate(("layer1", "layer2")):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(keys[i], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
