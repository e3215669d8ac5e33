# BLIND-SET: 25
# EXERCISE: ex1
# WHAT: correct rewrite: the coin is jax.random.uniform(key, x.shape) < 1 - rate (the same draw jax.random.bernoulli makes), survivors picked with jax.lax.select against zeros and scaled by 1/(1-rate); the MLP walks the two hidden layers in a loop, each with its own key from jax.random.split(key, 2).
# SHOULD-SAY: nothing to fix: this matches the reference (same masks for the same key, exact 1/(1-rate) scale, identity when train is false or rate is 0, one key per dropout layer).
"""Exercise 1: inverted dropout, written the way older JAX tutorials did it."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Inverted dropout: keep each element with probability 1 - rate, rescale survivors."""
    if (not train) or rate == 0:
        return x
    keep_prob = 1.0 - rate
    keep = jax.random.uniform(key, x.shape) < keep_prob
    return jax.lax.select(keep, x / keep_prob, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP, dropout after each hidden ReLU, one key per dropout layer."""
    hidden_keys = jax.random.split(key, 2)
    h = x
    for name, layer_key in zip(("layer1", "layer2"), hidden_keys):
        layer = params[name]
        h = jax.nn.relu(jnp.dot(h, layer["w"]) + layer["b"])
        h = dropout(layer_key, h, rate, train=train)
    out = params["layer3"]
    return jnp.dot(h, out["w"]) + out["b"]
