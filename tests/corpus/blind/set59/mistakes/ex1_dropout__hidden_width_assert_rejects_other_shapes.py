# BLIND-SET: 59
# EXERCISE: ex1
# WHAT: dropout keeps a debugging assert, `assert x.shape[-1] in (256, 128)`, so that only hidden activations may pass. It sits after the train/rate-0 early return. Any train-mode call with rate > 0 on an array whose last axis is not 256 or 128 raises AssertionError, eagerly and under jit. Shapes (300, 200), (2, 3, 4), (50,), (16, 784) and (64, 10) all fail at rates 0.1/0.5/0.8. On (128, 256) the output is bit-identical to the reference's. forward_with_dropout is bit-identical, because its activations are 256 and 128 wide. Eval equals forward, and train=False and rate=0 return x itself for any shape.
# SHOULD-SAY: dropout must accept an x of any shape. Yours raises AssertionError ('dropout on an unexpected shape') for any array whose last axis is not 256 or 128, such as (300, 200) or a 1-D array. Remove the leftover width assert: dropout should not depend on where in the network it is used.
"""Exercise 1: dropout with split PRNG keys."""

import time

import jax
import jax.numpy as jnp

VERBOSE = False
HIDDEN_WIDTHS = (256, 128)  # the only activations dropout should ever see
_log = []  # (shape, rate) of every dropout call, for checking where dropout sits


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


# --- Your code ----------------------------------------------------------------


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability `rate`, scale survivors by 1/(1-rate)."""
    _log.append((tuple(x.shape), rate, train))
    if not train or rate == 0.0:
        return x
    # sanity check from when dropout was landing on the logits: only hidden
    # activations (256 or 128 wide) should ever come through here
    assert x.shape[-1] in HIDDEN_WIDTHS, f"dropout on an unexpected shape {x.shape}"
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    if VERBOSE:
        jax.debug.print("kept {k} of {n}", k=mask.sum(), n=mask.size)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    t0 = time.perf_counter()
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
    # logits = dropout(key3, logits, rate, train)   # NO: not on the output
    if VERBOSE:
        print(f"forward_with_dropout {x.shape} took {time.perf_counter() - t0:.4f}s")
    return logits
