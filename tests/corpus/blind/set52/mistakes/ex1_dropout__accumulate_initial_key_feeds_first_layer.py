# BLIND-SET: 52
# EXERCISE: ex1
# WHAT: the per-layer keys come from itertools.accumulate(..., initial=key), which yields the initial value first, so the first hidden layer's mask is drawn from the caller's key itself (bit-identical to dropout(key, h1, rate)) while that same key is also split to make the second layer's key: one key used twice.
# SHOULD-SAY: In forward_with_dropout the first dropout layer uses the key you were given, and that key is also split for the next layer, so one key is used for two things. accumulate(..., initial=key) yields key before any split. Drop the initial element (or simply k1, k2 = jax.random.split(key)) so each layer gets a fresh subkey and the parent key is only ever split.
"""Exercise 1: dropout with split PRNG keys (keys from an accumulate chain)."""

from functools import reduce
from itertools import accumulate, repeat

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability rate, scale survivors by 1/(1-rate)."""
    keep = 1.0 - rate
    return x if not train or rate == 0 else jnp.where(jax.random.uniform(key, x.shape) < keep, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP, dropout after each hidden ReLU, a chain of keys."""
    dense = lambda h, p: h @ p["w"] + p["b"]
    keys = accumulate(repeat(None, 2), lambda k, _: jax.random.split(k)[1], initial=key)
    h = reduce(
        lambda h, nk: dropout(nk[1], jax.nn.relu(dense(h, params[nk[0]])), rate, train),
        zip(("layer1", "layer2"), keys),
        x,
    )
    return dense(h, params["layer3"])
