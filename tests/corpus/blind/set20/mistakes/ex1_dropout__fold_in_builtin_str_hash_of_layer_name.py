# BLIND-SET: 20
# EXERCISE: ex1
# WHAT: forward_with_dropout derives each layer's key Flax-style as jax.random.fold_in(key, hash("layer1") % 2**31) using Python's builtin str hash, which is salted per process (PYTHONHASHSEED), so the same key gives different masks in different Python processes
# SHOULD-SAY: dropout itself is correct and each layer does get its own key, but the keys are derived with Python's builtin hash() of the layer name, which is randomised per interpreter run: the same key no longer reproduces the same masks across runs (a hidden source of randomness); derive the per-layer keys from `key` alone, e.g. jax.random.split(key) or fold_in with fixed integers 1 and 2

"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _layer_key(key, name):
    """One key per named layer, like Flax's make_rng(name)."""
    return jax.random.fold_in(key, hash(name) % (2**31))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(_layer_key(key, "layer1"), h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(_layer_key(key, "layer2"), h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
