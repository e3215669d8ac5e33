# BLIND-SET: 32
# EXERCISE: ex1
# WHAT: correct rewrite: a frozen-dataclass Dropout layer with __call__(key, x) and a keep/scale property, an immutable DropoutMLP built per call with fresh Dense and Dropout objects, and the two layer keys held in a NamedTuple made by keyword from one jax.random.split.
# SHOULD-SAY: nothing to fix; the dropout, its rescaling, the train/rate shortcuts and the key handling are all correct.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Dropout:
    """Inverted dropout as a small immutable layer object."""

    rate: float = 0.5
    train: bool = True

    @property
    def keep(self):
        return 1.0 - self.rate

    @property
    def active(self):
        return bool(self.train) and self.rate != 0.0

    def __call__(self, key, x):
        if not self.active:
            return x
        survives = jax.random.bernoulli(key, self.keep, x.shape)
        return jnp.where(survives, x / self.keep, jnp.zeros_like(x)).astype(x.dtype)


@dataclasses.dataclass(frozen=True)
class Dense:
    w: jax.Array
    b: jax.Array

    def __call__(self, x):
        return x @ self.w + self.b


class LayerKeys(NamedTuple):
    hidden1: jax.Array
    hidden2: jax.Array

    @classmethod
    def from_key(cls, key):
        first, second = jax.random.split(key)
        return cls(hidden1=first, hidden2=second)


class DropoutMLP:
    """784-256-128-10 with dropout after both hidden ReLUs."""

    def __init__(self, params, rate, train):
        self.hidden1 = Dense(**params["layer1"])
        self.hidden2 = Dense(**params["layer2"])
        self.output = Dense(**params["layer3"])
        self.drop = Dropout(rate=rate, train=train)

    def __call__(self, x, keys):
        h = self.drop(keys.hidden1, jax.nn.relu(self.hidden1(x)))
        h = self.drop(keys.hidden2, jax.nn.relu(self.hidden2(h)))
        return self.output(h)


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    return Dropout(rate=rate, train=train)(key, x)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    return DropoutMLP(params, rate, train)(x, LayerKeys.from_key(key))
