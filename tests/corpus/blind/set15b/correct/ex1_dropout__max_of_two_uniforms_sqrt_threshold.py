# BLIND-SET: 15
# EXERCISE: ex1
# WHAT: dropout draws two uniforms per element and keeps the element when their maximum is below sqrt(1 - rate), using P(max(U1, U2) < t) = t**2; the forward pass walks the two hidden layers in a loop, each with its own row of jax.random.split(key, 2).
# SHOULD-SAY: All ex1 checks pass: each element is zeroed independently with probability rate and survivors are scaled by exactly 1/(1-rate), train=False and rate=0 return x unchanged, the mask depends only on the key, each dropout layer gets its own key, dropout sits after the two hidden ReLUs only, train=False equals forward, and results agree under jax.jit.
"""Exercise 1: inverted dropout with one PRNG key per layer (max-of-two-uniforms coins)."""

import math

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
    # For independent U1, U2 ~ Uniform(0, 1): P(max(U1, U2) < t) = t * t,
    # so comparing the max with sqrt(keep) keeps each element with probability keep.
    u_max = jnp.max(jax.random.uniform(key, (2,) + x.shape), axis=0)
    return jnp.where(u_max < math.sqrt(keep), x / keep, jnp.zeros_like(x)).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    layer_keys = jax.random.split(key, 2)
    h = x
    for i, name in enumerate(("layer1", "layer2")):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(layer_keys[i], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
