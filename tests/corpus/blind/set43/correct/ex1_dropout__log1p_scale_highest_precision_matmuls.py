# BLIND-SET: 43
# EXERCISE: ex1
# WHAT: correct. The mask is jax.random.bernoulli(key, 1 - rate, x.shape), as in the reference, so the same key gives the same mask; survivors are multiplied by exp(-log1p(-rate)) computed in float64 on the host and cast to x's dtype (equal to 1/(1 - rate) to the last float32 bit or so). The forward pass casts x to float32 explicitly and runs the matmuls with Precision.HIGHEST and float32 accumulation, which matches the plain forward to float32 tolerance; train=False and rate=0 return x itself.
# SHOULD-SAY: nothing to fix: full marks.
"""Exercise 1: inverted dropout with split PRNG keys, written precision-first."""

import math

import jax
import jax.numpy as jnp

_HI = jax.lax.Precision.HIGHEST


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _inverse_keep(rate):
    """1 / (1 - rate) in float64: exp(-log1p(-rate)) keeps every digit for small rates."""
    return math.exp(-math.log1p(-rate))


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability `rate`, scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    scale = jnp.asarray(_inverse_keep(rate), dtype=x.dtype)
    return jnp.where(mask, x * scale, jnp.zeros((), dtype=x.dtype))


def _dense(layer, h):
    """h @ w + b with float32 inputs, full-precision passes and float32 accumulation."""
    w = jnp.asarray(layer["w"], dtype=jnp.float32)
    b = jnp.asarray(layer["b"], dtype=jnp.float32)
    return jnp.matmul(h, w, precision=_HI, preferred_element_type=jnp.float32) + b[None, :]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jnp.asarray(x, dtype=jnp.float32)
    h = jax.nn.relu(_dense(params["layer1"], h))
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(_dense(params["layer2"], h))
    h = dropout(key2, h, rate, train)
    return _dense(params["layer3"], h)
