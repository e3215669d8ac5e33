# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Draws u ~ Uniform(-rate, 1 - rate) and keeps elements with u >= 0 (probability exactly 1 - rate), multiplying by a float mask; keys come from split(key, num=2) unpacked into two names.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout from the sign of a shifted uniform draw."""

import jax
import jax.numpy as jnp


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    if not train:
        return x
    if rate == 0.0:
        return x
    keep = 1.0 - rate
    u = jax.random.uniform(key, x.shape, dtype=x.dtype, minval=-rate, maxval=keep)
    mask = (u >= 0).astype(x.dtype)
    return x * mask / keep


def _dense(layer, h):
    return jnp.dot(h, layer["w"]) + layer["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    first_key, second_key = jax.random.split(key, num=2)
    h = dropout(first_key, jnp.maximum(_dense(params["layer1"], x), 0.0), rate, train)
    h = dropout(second_key, jnp.maximum(_dense(params["layer2"], h), 0.0), rate, train)
    return _dense(params["layer3"], h)
