# BLIND-SET: 18
# EXERCISE: ex1
# WHAT: dropout() returns x untouched whenever the leading axis has size 1 (a guard copied from a batch-norm layer), so a batch of one example (or any input whose first axis is 1) is never dropped.
# SHOULD-SAY: rate, rescaling, per-element coins, key handling and the MLP are right for batches of 2 or more, but dropout silently does nothing when x.shape[0] == 1 (e.g. a single example of shape (1, 784)); dropout is element-wise and needs no batch statistics, so remove the `x.shape[0] < 2` shortcut and only skip when train is False or rate == 0.
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------


def _is_inference(x, train):
    # Same guard as in my BatchNorm layer: with a single example there is
    # nothing to regularise over, so behave as in eval mode.
    return (not train) or x.ndim == 0 or x.shape[0] < 2


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if _is_inference(x, train) or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    k1, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
