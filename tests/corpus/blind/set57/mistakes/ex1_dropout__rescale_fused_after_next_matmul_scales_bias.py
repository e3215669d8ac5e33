# BLIND-SET: 57
# EXERCISE: ex1
# WHAT: dropout itself is correct. forward_with_dropout inlines the two dropouts and, to save multiplies, applies the 1/keep rescale after the next layer's affine map instead of to the masked activations: relu((mask1*h1) @ W2 + b2) * inv_keep and ((mask2*h2) @ W3 + b3) * inv_keep. That also scales the biases b2 and b3 by 1/(1 - rate), so the logits are off by terms proportional to b * rate/(1 - rate). Masks and keys are the reference's: with zero biases (the lesson's init) the logits equal the reference's within float32 rounding (max |diff| 2.6e-6); with non-zero biases (0.1*N(0,1)) they differ by 0.08 to 0.13 at rate 0.2 and 0.35 to 0.58 at rate 0.5 (B = 16/128). train=False and rate=0 equal forward exactly.
# SHOULD-SAY: In forward_with_dropout the inverted-dropout rescale is applied after the next layer adds its bias, so the biases of layer2 and layer3 are multiplied by 1/(1 - rate) as well (invisible with zero biases, wrong as soon as biases are trained). Scale only the dropped-out activations: dropout(key, h, rate) (or (mask*h) @ W * inv_keep + b, rescaling before the bias is added).
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
    mask = jax.random.bernoulli(key, keep, x.shape)
    return lax.select(mask, x * (1.0 / keep), jnp.zeros_like(x))


def dropout(key, x, rate, train=True):
    """Inverted dropout; `rate` and `train` are Python values (static)."""
    if not train or rate == 0.0:
        return x  # no copy, no dispatch
    return _dropout_train(key, x, rate)


@functools.partial(jax.jit, static_argnames=("rate", "train"))
def _forward_with_dropout(params, x, key, rate, train):
    h = jax.nn.relu(_dense(x, params["layer1"]))
    if not train or rate == 0.0:
        h = jax.nn.relu(_dense(h, params["layer2"]))
        return _dense(h, params["layer3"])
    keep = 1.0 - rate
    inv_keep = 1.0 / keep
    key1, key2 = jax.random.split(key)
    # Fused inverted dropout: zero with the mask here, and move the 1/keep
    # rescale past the next matmul, where the layer is narrower (256 -> 128,
    # 128 -> 10), so it costs fewer multiplies. relu(c*z) == c*relu(z) for c > 0.
    m1 = jax.random.bernoulli(key1, keep, h.shape)
    h = jax.nn.relu(_dense(lax.select(m1, h, jnp.zeros_like(h)), params["layer2"]) * inv_keep)
    m2 = jax.random.bernoulli(key2, keep, h.shape)
    return _dense(lax.select(m2, h, jnp.zeros_like(h)), params["layer3"]) * inv_keep


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU, one compiled program per (rate, train)."""
    return _forward_with_dropout(params, x, key, rate=rate, train=train)
