# BLIND-SET: 21
# EXERCISE: ex1
# WHAT: a torch-style module-level `training` flag is switched off by forward_with_dropout(train=False) (like model.eval()) and never switched back on; dropout() honours it, so after any eval-mode forward pass every later dropout/forward call with train=True returns its input unchanged.
# SHOULD-SAY: dropout's mask, rescaling and key splitting are right, but its behaviour depends on hidden global state: once forward_with_dropout has run with train=False, dropout(..., train=True) and forward_with_dropout(..., train=True) no longer drop anything. Remove the module-level mode flag and decide only from the `train` argument passed in (JAX functions should be pure).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp

# Like torch's `module.training`: one switch for the whole model.
_MODE = {"training": True}


def eval_mode():
    """Like model.eval(): switch dropout off."""
    _MODE["training"] = False


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not (train and _MODE["training"]) or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if not train:
        eval_mode()
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
