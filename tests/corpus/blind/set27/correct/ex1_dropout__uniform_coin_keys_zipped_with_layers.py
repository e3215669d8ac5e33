# BLIND-SET: 27
# EXERCISE: ex1
# WHAT: Correct rewrite: the coin is jax.random.uniform(key, shape) < 1 - rate (the same draw jax.random.bernoulli makes), survivors divided by the keep probability with jnp.where/zeros_like; the two hidden layers run in a loop over zip(names, jax.random.split(key)), one key per dropout layer.
# SHOULD-SAY: Nothing to fix: inverted dropout with the right rate and scale, x unchanged for train=False or rate 0, one fresh key per layer, dropout only after the hidden ReLUs, and it works under jit with rate and train static.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if train and rate > 0.0:
        keep_prob = 1.0 - rate
        coin = jax.random.uniform(key, jnp.shape(x))
        return jnp.where(coin < keep_prob, x / keep_prob, jnp.zeros_like(x))
    return x


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    h = x
    for name, layer_key in zip(("layer1", "layer2"), jax.random.split(key)):
        layer = params[name]
        h = dropout(layer_key, jax.nn.relu(h @ layer["w"] + layer["b"]), rate, train)
    out = params["layer3"]
    return h @ out["w"] + out["b"]
