# BLIND-SET: 23
# EXERCISE: ex1
# WHAT: forward_with_dropout loops over zip(params.items(), keys) with only two keys (one per hidden layer); zip stops after layer2, so layer3 is never applied and the function returns the (B, 128) dropped-out hidden activations instead of (B, 10) logits, also with train=False; dropout itself is unchanged
# SHOULD-SAY: forward_with_dropout returns shape (B, 128), not (B, 10) logits, and with train=False it does not equal the plain forward pass: the output layer is never applied, because zip(params.items(), keys) stops at the shorter sequence and there are only two dropout keys for three layers. Apply layer3 after the loop (or iterate over the layers, not over the keys).
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
    keys = jax.random.split(key)  # one key per hidden layer
    h = x
    for (name, layer), layer_key in zip(params.items(), keys):
        h = h @ layer["w"] + layer["b"]
        if name != "layer3":
            h = jax.nn.relu(h)
            h = dropout(layer_key, h, rate, train)
    return h
