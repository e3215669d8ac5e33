# BLIND-SET: 38
# EXERCISE: ex1
# WHAT: forward_with_dropout keeps an nnx.Rngs-like dropout stream in the caller's params (it writes params["rngs"] = {"dropout": next_key}, on every call, train or not), and on later calls with the same params it continues that stored stream instead of using `key`. The first call's output equals the reference, but params gains a "rngs" entry and a second call with the same (params, x, key) gives different masks.
# SHOULD-SAY: forward_with_dropout modifies its params argument (it stores an RNG stream in params["rngs"]) and then draws later masks from that stored state instead of from the key you are given, so the same key no longer gives the same result. Keep no state: split the key argument inside the function and do not write anything into params.
"""Exercise 1: dropout with split PRNG keys, Flax NNX style (the Rngs stream lives with the model)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True, *, deterministic=None):
    """Inverted dropout; ``deterministic`` (nnx.Dropout's name) overrides ``train``."""
    if deterministic is None:
        deterministic = not train
    if deterministic or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


class _Rngs:
    """nnx.Rngs in miniature: a named stream that advances every time it is used."""

    def __init__(self, **streams):
        self.streams = dict(streams)

    def __call__(self, name):
        self.streams[name], sub = jax.random.split(self.streams[name])
        return sub


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    # As in NNX the RNG state is part of the model: continue its stream if the
    # model already has one, otherwise seed the stream from `key`.
    state = params.get("rngs", {})
    stream = state.get("dropout", key)
    k1, k2 = jax.random.split(stream)
    rngs = _Rngs(dropout=k2)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, deterministic=not train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, rate, deterministic=not train)
    params["rngs"] = {"dropout": rngs("dropout")}  # advance the stream, like nnx
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
