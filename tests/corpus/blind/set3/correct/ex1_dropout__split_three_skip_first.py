# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Splits the key into three with jax.random.split(key, 3), keeps the first as an unused "carry" key and gives the two dropout layers keys[1] and keys[2]; dropout multiplies by a float mask.
# SHOULD-SAY: full marks
"""Exercise 1: dropout with a three-way key split."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if train and rate > 0.0:
        keep = 1.0 - rate
        mask = jax.random.bernoulli(key, p=keep, shape=x.shape).astype(x.dtype)
        return x * mask / keep
    return x


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 3)  # keys[0] would be carried on to the next step
    h = x
    for i, name in enumerate(("layer1", "layer2"), start=1):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(keys[i], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
