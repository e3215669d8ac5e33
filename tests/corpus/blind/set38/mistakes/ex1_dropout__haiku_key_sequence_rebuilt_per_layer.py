# BLIND-SET: 38
# EXERCISE: ex1
# WHAT: forward_with_dropout emulates hk.next_rng_key() with a helper that builds a new PRNGSequence(key) on each call and returns its first key, so both dropout layers use the same key, split(key)[1]. dropout() itself is correct (mask identical to the reference for a given key).
# SHOULD-SAY: Both dropout layers use the same key: your next_rng_key helper starts a new key sequence from `key` each time it is called, so it always returns the same first subkey. Split once (k1, k2 = jax.random.split(key)) or keep one sequence object and call next() on it for each layer.
"""Exercise 1: dropout with split PRNG keys, Haiku style (hk.PRNGSequence / hk.next_rng_key)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


class PRNGSequence:
    """A tiny hk.PRNGSequence: an iterator of fresh keys."""

    def __init__(self, key):
        self._key = key

    def __iter__(self):
        return self

    def __next__(self):
        self._key, subkey = jax.random.split(self._key)
        return subkey


def next_rng_key(key):
    """Like hk.next_rng_key(): hand out the next key of the sequence."""
    return next(PRNGSequence(key))


def dropout(key, x, rate, train=True):
    """Inverted dropout (hk.dropout(rng, rate, x), with a train switch)."""
    if not train or rate == 0.0:
        return x
    keep_rate = 1.0 - rate
    keep = jax.random.bernoulli(key, keep_rate, x.shape)
    return jnp.where(keep, x / keep_rate, 0.0).astype(x.dtype)


def _linear(module, h):
    return h @ module["w"] + module["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    h = jax.nn.relu(_linear(params["layer1"], x))
    h = dropout(next_rng_key(key), h, rate, train)
    h = jax.nn.relu(_linear(params["layer2"], h))
    h = dropout(next_rng_key(key), h, rate, train)
    return _linear(params["layer3"], h)
