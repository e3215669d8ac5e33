# BLIND-SET: 32
# EXERCISE: ex1
# WHAT: forward_with_dropout builds a DropoutMLP object whose per-layer keys live in `_keys = []`, a class attribute; `self._keys += list(jax.random.split(key))` extends that one shared list, and the layers read `self._keys[0]` and `self._keys[1]`, i.e. the keys of the very first call, forever. After the first call a different key gives the same output (the key argument is ignored); if the first call was traced under jit, later calls use leaked tracers and raise.
# SHOULD-SAY: From the second call on, forward_with_dropout ignores its key: `_keys = []` is a class attribute shared by every DropoutMLP, and `+=` on a list extends it in place, so indices 0 and 1 always hold the first call's keys. Create the list per instance in __init__ (self._keys = list(jax.random.split(key))), or just split the key locally.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


class DropoutMLP:
    """The lesson's MLP with one dropout key per hidden layer."""

    _keys = []

    def __init__(self, params, key, rate, train):
        self.params = params
        self.rate = rate
        self.train = train
        self._keys += list(jax.random.split(key))

    def dense(self, name, h):
        return h @ self.params[name]["w"] + self.params[name]["b"]

    def __call__(self, x):
        h = jax.nn.relu(self.dense("layer1", x))
        h = dropout(self._keys[0], h, self.rate, self.train)
        h = jax.nn.relu(self.dense("layer2", h))
        h = dropout(self._keys[1], h, self.rate, self.train)
        return self.dense("layer3", h)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    return DropoutMLP(params, key, rate, train)(x)
