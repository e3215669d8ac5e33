# BLIND-SET: 28
# EXERCISE: ex1
# WHAT: Correct rewrite: the mask comes from jax.random.bernoulli with a full array of keep probabilities and jax.lax.select; the two hidden layers run in a loop over (layer name, key) pairs from one split.
# SHOULD-SAY: Nothing to fix: dropout rate, rescale, eval identity, per-element masks and one key per layer are all right.
"""Exercise 1: dropout with split PRNG keys (rewritten)."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    if (not train) or rate == 0:
        return x
    keep_prob = 1.0 - rate
    keep = jax.random.bernoulli(key, jnp.full(jnp.shape(x), keep_prob))
    return jax.lax.select(keep, x * (1.0 / keep_prob), jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    keys = jax.random.split(key, 2)
    h = x
    for name, k in zip(("layer1", "layer2"), keys):
        h = jax.nn.relu(jnp.dot(h, params[name]["w"]) + params[name]["b"])
        h = dropout(k, h, rate, train=train)
    return jnp.dot(h, params["layer3"]["w"]) + params["layer3"]["b"]
