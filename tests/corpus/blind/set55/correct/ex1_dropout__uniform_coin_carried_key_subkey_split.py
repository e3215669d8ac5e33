# BLIND-SET: 55
# EXERCISE: ex1
# WHAT: correct: dropout draws uniforms and keeps u < 1 - rate (bit-identical to jax.random.bernoulli(key, 1 - rate, shape), so the same masks as the reference for the same key), zeroes the rest and multiplies survivors by 1/(1-rate); eval returns x itself. forward_with_dropout uses the old-tutorial carried-key pattern (key, subkey = split(key) before each layer), so each dropout layer gets its own fresh subkey (different from the reference's two keys, same distribution).
# SHOULD-SAY: Nothing to fix: every ex1 check should pass (dropout masks equal the reference's for the same key; the forward keys differ from the reference's but each layer gets its own unused key).
"""Exercise 1: inverted dropout, old-tutorial style key handling."""

import jax
import jax.numpy as jnp
from jax import random


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    # F.dropout(x, p=rate, training=train)
    if (not train) or rate == 0:
        return x
    keep_prob = 1.0 - rate
    noise = random.uniform(key, shape=jnp.shape(x))  # like torch.rand_like(x)
    keep = noise < keep_prob
    scale = jnp.asarray(1.0 / keep_prob, dtype=x.dtype)
    return jnp.where(keep, x * scale, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    if not train:
        return forward(params, x)
    h = x
    for name in ("layer1", "layer2"):
        key, subkey = random.split(key)  # carry `key`, consume `subkey`
        h = jnp.maximum(h @ params[name]["w"] + params[name]["b"], 0.0)
        h = dropout(subkey, h, rate, train=True)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
