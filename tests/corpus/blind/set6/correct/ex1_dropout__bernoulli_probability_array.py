# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: dropout passes a full per-element array of keep probabilities to jax.random.bernoulli (shape taken from p) and multiplies by the 0/1 mask; the MLP uses a small dense helper and indexes the two keys of jax.random.split(key, 2).
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout with one PRNG key per layer (probability-array style)."""

import jax
import jax.numpy as jnp


def _dense(layer, h):
    """One affine layer: h @ w + b."""
    return h @ layer["w"] + layer["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep_prob = jnp.full(x.shape, 1.0 - rate, dtype=jnp.float32)
    kept = jax.random.bernoulli(key, p=keep_prob)  # one independent coin per element
    return x * kept.astype(x.dtype) / (1.0 - rate)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 2)
    h = dropout(keys[0], jax.nn.relu(_dense(params["layer1"], x)), rate, train)
    h = dropout(keys[1], jax.nn.relu(_dense(params["layer2"], h)), rate, train)
    return _dense(params["layer3"], h)
