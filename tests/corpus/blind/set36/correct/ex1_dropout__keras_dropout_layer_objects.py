# BLIND-SET: 36
# EXERCISE: ex1
# WHAT: Correct rewrite in Keras terms: a small Dropout "layer" object holding rate, called with (inputs, key, training); the mask is uniform(key) < 1 - rate (the same draw jax.random.bernoulli makes), survivors selected with lax.select; the forward pass loops over (Dense name, dropout layer, key) triples from one split.
# SHOULD-SAY: Nothing to fix: inverted dropout with rate as the drop probability, identity for training=False or rate 0, one fresh key per dropout layer, dropout only after the two hidden ReLUs.
"""Exercise 1 (Keras-flavoured rewrite): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


class Dropout:
    """Like keras.layers.Dropout(rate): `rate` is the fraction of inputs to drop."""

    def __init__(self, rate):
        self.rate = float(rate)

    def __call__(self, inputs, key, training=True):
        if not training or self.rate == 0.0:
            return inputs
        keep_prob = 1.0 - self.rate
        keep = jax.random.uniform(key, inputs.shape) < keep_prob
        return jax.lax.select(keep, inputs / keep_prob, jnp.zeros_like(inputs))


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    return Dropout(rate)(x, key, training=train)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    hidden = ("layer1", "layer2")
    layer_keys = jax.random.split(key, len(hidden))
    h = x
    for name, layer_key in zip(hidden, layer_keys):
        kernel, bias = params[name]["w"], params[name]["b"]
        h = jax.nn.relu(jnp.dot(h, kernel) + bias)
        h = dropout(layer_key, h, rate, train)
    kernel, bias = params["layer3"]["w"], params["layer3"]["b"]
    return jnp.dot(h, kernel) + bias
