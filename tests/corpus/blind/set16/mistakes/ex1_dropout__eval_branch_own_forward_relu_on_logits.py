# BLIND-SET: 16
# EXERCISE: ex1
# WHAT: with train=False forward_with_dropout returns early through a hand-written loop over the three layers that applies ReLU after every layer, including the output layer.
# SHOULD-SAY: dropout itself and the training-mode forward pass are right (correct rate, 1/(1-rate) rescale, one key per layer, dropout only after the hidden ReLUs), but with train=False the output differs from the plain forward pass: the eval shortcut applies ReLU to the logits as well, so negative logits become 0; apply ReLU only after the two hidden layers (or just call the same code with train=False).
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


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if not train:
        # evaluation: no dropout needed, just run the network
        h = x
        for name in ("layer1", "layer2", "layer3"):
            h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        return h
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
