# BLIND-SET: 57
# EXERCISE: ex1
# WHAT: Correct. dropout returns x itself when train is false or rate is 0; otherwise a jitted helper (rate static) draws bernoulli(key, 1 - rate, x.shape), the reference's mask, and returns lax.select(mask, x * r, 0) with r = 1/(1 - rate) from an lru_cache. forward_with_dropout is jitted with static_argnames=(rate, train), uses lax.dot_general for the affine maps and splits the key once (keys[0], keys[1], the reference's keys). Outputs are bit-identical to the reference on every input tried (rates 0.1/0.5/0.8, 1-D/2-D/3-D, B = 16/128, zero and non-zero biases, under jit).
# SHOULD-SAY: Nothing to fix: per-element masks with probability rate, survivors scaled by 1/(1 - rate), x returned unchanged when train is false or rate is 0, one split key per dropout layer after each hidden ReLU.
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


@functools.lru_cache(maxsize=None)
def _inv_keep(rate):
    """1/(1-rate) as a Python float, computed once per rate."""
    return 1.0 / (1.0 - rate)


@functools.partial(jax.jit, static_argnames=("rate",))
def _dropout_train(key, x, rate):
    # Same coin flips as bernoulli(key, 1 - rate, x.shape), one per element;
    # lax.select instead of where, and a multiply by a precomputed reciprocal.
    mask = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return lax.select(mask, x * _inv_keep(rate), jnp.zeros_like(x))


def dropout(key, x, rate, train=True):
    """Inverted dropout; `rate` and `train` are Python values (static)."""
    if not train or rate == 0.0:
        return x  # no copy, no dispatch
    return _dropout_train(key, x, rate)


@functools.partial(jax.jit, static_argnames=("rate", "train"))
def _forward_with_dropout(params, x, key, rate, train):
    keys = jax.random.split(key)  # one key per dropout layer, never reused
    h = x
    for i, name in enumerate(("layer1", "layer2")):
        h = jax.nn.relu(_dense(h, params[name]))
        h = dropout(keys[i], h, rate, train)
    return _dense(h, params["layer3"])


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU, one compiled program per (rate, train)."""
    return _forward_with_dropout(params, x, key, rate=rate, train=train)
