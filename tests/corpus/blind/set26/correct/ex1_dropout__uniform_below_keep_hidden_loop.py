# BLIND-SET: 26
# EXERCISE: ex1
# WHAT: correct rewrite: the mask is `jax.random.uniform(key, x.shape) < keep` (the same coin as bernoulli), survivors divided by keep with jnp.where against zeros_like; the two hidden layers run in a loop over (layer name, key) pairs made by one jax.random.split(key, 2).
# SHOULD-SAY: nothing to fix: inverted dropout at any rate, identity for train=False or rate 0, one fresh key per dropout layer, dropout only after the two hidden ReLUs.
"""Exercise 1: inverted dropout; the hidden layers in a loop, one key each."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Each element survives with probability 1 - rate and is then divided by 1 - rate."""
    if not train or rate == 0:
        return x
    keep = 1.0 - rate
    survives = jax.random.uniform(key, shape=x.shape) < keep
    return jnp.where(survives, x / keep, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP; dropout after the ReLU of each hidden layer."""
    hidden_keys = jax.random.split(key, 2)
    h = x
    for layer_name, layer_key in zip(("layer1", "layer2"), hidden_keys):
        layer = params[layer_name]
        h = jax.nn.relu(jnp.dot(h, layer["w"]) + layer["b"])
        h = dropout(layer_key, h, rate, train=train)
    out = params["layer3"]
    return jnp.dot(h, out["w"]) + out["b"]
