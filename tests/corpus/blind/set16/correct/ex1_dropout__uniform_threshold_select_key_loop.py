# BLIND-SET: 16
# EXERCISE: ex1
# WHAT: correct rewrite: the mask is built from jax.random.uniform < keep and applied with jax.lax.select, and the MLP is a loop over the hidden layers that takes one subkey per layer from jax.random.split(key, 2).
# SHOULD-SAY: everything is correct: elements are dropped independently with probability `rate`, survivors scaled by 1/(1-rate), train=False and rate=0 return the input, each dropout layer gets its own key, dropout sits only after the hidden ReLUs and train=False equals the plain forward pass.
"""Exercise 1: inverted dropout with one PRNG key per layer (uniform-threshold version)."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if (not train) or rate == 0:
        return x
    keep_prob = 1.0 - rate
    keep = jax.random.uniform(key, x.shape) < keep_prob
    scaled = x * jnp.asarray(1.0 / keep_prob, dtype=x.dtype)
    return jax.lax.select(keep, scaled, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    layer_keys = jax.random.split(key, 2)
    h = x
    for i, name in enumerate(("layer1", "layer2")):
        h = jax.nn.relu(jnp.dot(h, params[name]["w"]) + params[name]["b"])
        h = dropout(layer_keys[i], h, rate, train=train)
    out = params["layer3"]
    return jnp.dot(h, out["w"]) + out["b"]
