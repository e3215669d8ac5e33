# BLIND-SET: 55
# EXERCISE: ex1
# WHAT: dropout converts train into a stax-style mode string ("train"/"eval") but, like the old jax.experimental.stax Dropout, only skips dropout when mode == "test"; train=False (mode "eval") therefore still drops and rescales, so dropout(train=False) is not x and forward_with_dropout(train=False) differs from the plain forward pass.
# SHOULD-SAY: With train=False dropout must return x unchanged, but your eval mode string "eval" never matches the "test" you check for, so dropout stays on at evaluation; compare the Python bool train directly (if not train or rate == 0: return x).
"""Exercise 1: dropout with split PRNG keys (ported from my old stax notes)."""

import jax
import jax.numpy as jnp
from jax import random


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _mode(train):
    # Flax-ish naming: "train" vs "eval"
    return "train" if train else "eval"


def dropout(key, x, rate, train=True):
    mode = _mode(train)
    # stax.Dropout: `if mode == 'train': ... else: return inputs`, written the other way round
    if mode == "test" or rate == 0.0:
        return x
    keep_rate = 1.0 - rate
    keep = random.bernoulli(key, keep_rate, x.shape)
    return jnp.where(keep, x / keep_rate, 0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    rng1, rng2 = random.split(key)
    h = jax.nn.relu(jnp.dot(x, params["layer1"]["w"]) + params["layer1"]["b"])
    h = dropout(rng1, h, rate, train)
    h = jax.nn.relu(jnp.dot(h, params["layer2"]["w"]) + params["layer2"]["b"])
    h = dropout(rng2, h, rate, train)
    return jnp.dot(h, params["layer3"]["w"]) + params["layer3"]["b"]
