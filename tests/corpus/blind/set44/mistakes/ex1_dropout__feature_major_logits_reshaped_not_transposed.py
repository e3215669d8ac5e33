# BLIND-SET: 44
# EXERCISE: ex1
# WHAT: forward_with_dropout carries activations feature-major, (units, B), and at the end turns the (10, B) logits into (B, 10) with reshape(-1, 10) instead of a transpose, which scrambles rows and columns for every B > 1 (in training and with train=False). At B = 1 the output is right, and dropout itself is bit-identical to the reference.
# SHOULD-SAY: The logits are scrambled across examples and classes: reshaping a (classes, batch) array to (batch, classes) reorders the memory instead of swapping the axes, so train=False does not match the plain forward pass once B > 1. Return logits.T (or jnp.swapaxes(logits, 0, 1)), or keep the batch axis first throughout.
"""Exercise 1: inverted dropout with one PRNG key per layer (feature-major layout)."""

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
    mask = jax.random.bernoulli(key, keep, x.shape)  # one coin per element, shape of x
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _dense_fm(h, layer):
    # feature-major: h (in, B), w (in, out), b (out,) -> (out, B)
    return jnp.einsum("io,ib->ob", layer["w"], h) + layer["b"][:, None]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = x.T                                                # (784, B)
    h = jax.nn.relu(_dense_fm(h, params["layer1"]))        # (256, B)
    h = dropout(key1, h.T, rate, train).T                  # dropout sees (B, 256)
    h = jax.nn.relu(_dense_fm(h, params["layer2"]))        # (128, B)
    h = dropout(key2, h.T, rate, train).T                  # dropout sees (B, 128)
    logits = _dense_fm(h, params["layer3"])                # (10, B)
    return logits.reshape(-1, logits.shape[0])             # (B, 10)
