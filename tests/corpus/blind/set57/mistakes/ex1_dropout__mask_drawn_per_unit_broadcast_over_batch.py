# BLIND-SET: 57
# EXERCISE: ex1
# WHAT: dropout draws one bernoulli coin per unit, bernoulli(key, keep, x.shape[-1:]), and broadcasts it over the leading axes to save random bits. Every row of a (B, n) input (and every leading slice of a 3-D one) gets the same zero pattern, so whole columns are dropped together and the zero fraction of one call is only that of n coins (0.075 and 0.12 at rate 0.1 with n = 200, instead of ~0.10). The scale 1/(1 - rate) is exact, the same key still gives the same mask, and for a 1-D x the result equals the reference's exactly; for 2-D/3-D inputs it differs (max |diff| 3.8 to 25 at rates 0.1 to 0.8 on (300, 200)), and forward_with_dropout differs at every rate > 0 (max |diff| 4.7 to 12 on the logits). train=False and rate=0 are exact.
# SHOULD-SAY: Dropout must flip an independent coin for every element, but your mask is drawn once per unit (shape x.shape[-1:]) and broadcast over the batch, so every example loses the same units. Draw the mask with the full shape: jax.random.bernoulli(key, 1 - rate, x.shape).
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


@functools.partial(jax.jit, static_argnames=("rate",))
def _dropout_train(key, x, rate):
    keep = 1.0 - rate
    # One coin per unit (last axis), broadcast over the leading axes: the RNG
    # only has to produce x.shape[-1] bits instead of x.size.
    unit_mask = jax.random.bernoulli(key, keep, x.shape[-1:])
    mask = jnp.broadcast_to(unit_mask, x.shape)
    return lax.select(mask, x * (1.0 / keep), jnp.zeros_like(x))


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
