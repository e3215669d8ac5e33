# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: The Bernoulli mask marks the dropped elements (probability `rate`) instead of the kept ones, survivors are multiplied by a precomputed 1/(1-rate), and the layers use jnp.einsum; keys come from jax.random.split(key, num=2).
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout with one PRNG key per layer (drop-mask and einsum style)."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    dropped = jax.random.bernoulli(key, rate, x.shape)  # True marks a zeroed element
    scale = 1.0 / (1.0 - rate)
    return jnp.where(dropped, jnp.zeros_like(x), x * scale)


def _affine(params, name, h):
    return jnp.einsum("bi,io->bo", h, params[name]["w"]) + params[name]["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    k_hidden1, k_hidden2 = jax.random.split(key, num=2)
    h = jax.nn.relu(_affine(params, "layer1", x))
    h = dropout(k_hidden1, h, rate, train)
    h = jax.nn.relu(_affine(params, "layer2", h))
    h = dropout(k_hidden2, h, rate, train)
    return _affine(params, "layer3", h)
