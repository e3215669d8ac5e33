# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: Written with small stateless layer objects (Dense, Dropout) in the style of a module library: Dropout holds only the rate, takes the key on each call and thresholds a uniform draw; dropout() delegates to it and the MLP splits the key once into two.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout with one PRNG key per layer, as small layer objects."""

import jax
import jax.numpy as jnp


class Dense:
    """An affine layer reading its weights from one entry of the params dict."""

    def __init__(self, layer):
        self.w = layer["w"]
        self.b = layer["b"]

    def __call__(self, h):
        return h @ self.w + self.b


class Dropout:
    """Inverted dropout with a fixed rate; the PRNG key is passed in on every call."""

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, key, x, train=True):
        if not train or self.rate == 0.0:
            return x
        keep = 1.0 - self.rate
        u = jax.random.uniform(key, x.shape, dtype=x.dtype)
        return jnp.where(u < keep, x / keep, jnp.zeros_like(x))


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    return Dropout(rate)(key, x, train)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    hidden1, hidden2, output = (Dense(params[f"layer{i}"]) for i in (1, 2, 3))
    drop = Dropout(rate)
    key_a, key_b = jax.random.split(key)
    h = drop(key_a, jax.nn.relu(hidden1(x)), train)
    h = drop(key_b, jax.nn.relu(hidden2(h)), train)
    return output(h)
