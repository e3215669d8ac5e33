# BLIND-SET: 15
# EXERCISE: ex1
# WHAT: forward_with_dropout uses a small `_dense` helper that reads the bias with `layer.get("bias", 0.0)`, but the lesson's params call it "b", so every bias silently falls back to 0.
# SHOULD-SAY: dropout itself is right (rate, exact 1/(1-rate) rescale, train=False/rate=0, per-element coins, keys), and forward_with_dropout splits the key and places dropout after the two hidden ReLUs, but it drops all three biases: the helper looks up "bias" instead of "b" and .get() quietly returns 0.0, so with train=False it does not equal the plain forward pass whenever the biases are non-zero (and training logits are off too). Read params[name]["b"] (indexing with [] would have raised a KeyError and shown the typo).
"""Exercise 1: inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _dense(layer, h):
    """One affine layer; a layer without a bias just adds nothing."""
    return h @ layer["w"] + layer.get("bias", 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = dropout(key1, jax.nn.relu(_dense(params["layer1"], x)), rate, train)
    h = dropout(key2, jax.nn.relu(_dense(params["layer2"], h)), rate, train)
    return _dense(params["layer3"], h)
