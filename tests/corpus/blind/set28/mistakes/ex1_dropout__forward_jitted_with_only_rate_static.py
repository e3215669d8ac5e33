# BLIND-SET: 28
# EXERCISE: ex1
# WHAT: forward_with_dropout is wrapped in jax.jit with only `rate` static; `train` becomes a tracer whenever it is passed, so `if not train` in dropout raises a TracerBoolConversionError, e.g. forward_with_dropout(..., train=False).
# SHOULD-SAY: Passing train explicitly fails under the student's own jit: `train` is a Python flag used in an `if`, so it must be static too (static_argnames=("rate", "train")), or leave the function un-jitted.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import functools

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


@functools.partial(jax.jit, static_argnames="rate")
def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
