# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: dropout keeps an element when the Cauchy CDF of a standard Cauchy draw, 0.5 + arctan(c)/pi (a Uniform(0,1) variate), is below 1-rate; forward splits the key into a pair consumed by a loop over the two hidden layers.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout from Cauchy draws mapped through their CDF."""

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
    c = jax.random.cauchy(key, x.shape)
    u = 0.5 + jnp.arctan(c) / jnp.pi  # probability integral transform: Uniform(0, 1)
    return jnp.where(u < keep, x / keep, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP; dropout after the two hidden ReLUs, one key each."""
    h = x
    for name, layer_key in zip(("layer1", "layer2"), jax.random.split(key, 2)):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(layer_key, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
