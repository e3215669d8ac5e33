# BLIND-SET: 57
# EXERCISE: ex1
# WHAT: dropout keeps the reference's bernoulli mask but does the survivor rescale in bfloat16 (x.astype(bfloat16) * bfloat16(1/keep), then cast back to float32) to halve the bandwidth of the multiply. Output dtype stays float32 and the zero pattern is exact, but every survivor is rounded to bfloat16's 8-bit mantissa: the survivor/x ratio ranges over about 1.105..1.114 instead of exactly 1.111111 at rate 0.1, 1.992..2.008 instead of 2 at rate 0.5 (even though 2 is exact in bfloat16), 4.98..5.02 at rate 0.8; max |diff| vs the reference is 0.015 to 0.04 on N(0,1) inputs of shape (300, 200), and 0.012 to 0.029 on forward_with_dropout logits (B = 16/128, rates 0.2/0.5). train=False and rate=0 return x itself and are exact; the eval forward equals forward.
# SHOULD-SAY: The survivors are not scaled by exactly 1/(1 - rate): the rescale is computed in bfloat16, which keeps only about 3 significant digits (relative error up to ~0.4%), so the outputs drift from x/(1 - rate). Keep the multiply in x's dtype (float32): lax.select(mask, x / keep, 0) or jnp.where(mask, x / keep, 0.0); the elementwise op is not worth the precision loss.
"""Exercise 1: dropout with split PRNG keys (tuned: jit with static rate/train, lax primitives)."""

import functools

import jax
import jax.numpy as jnp
from jax import lax

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last.

    ``params`` is ``{"layer1": {"w": (784, 256), "b": (256,)},
    "layer2": {"w": (256, 128), "b": (128,)}, "layer3": {"w": (128, 10),
    "b": (10,)}}``; ``x`` is float32 ``(B, 784)``; returns logits ``(B, 10)``.
    """
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- My code ------------------------------------------------------------------

# (h @ w) as a bare dot_general: contract h's last axis with w's first.
_MM_DIMS = (((1,), (0,)), ((), ()))


def _dense(h, layer):
    return lax.dot_general(h, layer["w"], _MM_DIMS) + layer["b"]


_BF16 = jnp.bfloat16


@functools.partial(jax.jit, static_argnames=("rate",))
def _dropout_train(key, x, rate):
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    # The rescale is pure bandwidth: do the multiply at half width (bf16) and
    # widen back, so the elementwise pass moves half the bytes.
    scaled = (x.astype(_BF16) * jnp.asarray(1.0 / keep, dtype=_BF16)).astype(x.dtype)
    return lax.select(mask, scaled, jnp.zeros_like(x))


def dropout(key, x, rate, train=True):
    """Inverted dropout; `rate` and `train` are Python values (static)."""
    if not train or rate == 0.0:
        return x  # no copy, no dispatch
    return _dropout_train(key, x, rate)


@functools.partial(jax.jit, static_argnames=("rate", "train"))
def _forward_with_dropout(params, x, key, rate, train):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(_dense(x, params["layer1"]))
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(_dense(h, params["layer2"]))
    h = dropout(key2, h, rate, train)
    return _dense(h, params["layer3"])


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU, one compiled program per (rate, train)."""
    return _forward_with_dropout(params, x, key, rate=rate, train=train)
