# BLIND-SET: 20
# EXERCISE: ex1
# WHAT: correct: the coin is drawn from jax.random.triangular(0, 1, 1) (CDF t**2) and kept when t*t < 1-rate, applied with lax.select; the MLP is a functools.reduce over a small dense-layer class with the two dropout keys taken from an iterator over jax.random.split(key, 2)
# SHOULD-SAY: full marks: each element is kept independently with probability 1-rate and survivors are divided by 1-rate, train=False / rate=0 return x itself, each hidden layer gets its own key from one split, dropout sits after the two hidden ReLUs only, and train=False equals the plain forward pass

"""Exercise 1: inverted dropout, written with a triangular coin and a reduce."""

import functools

import jax
import jax.numpy as jnp
from jax import lax


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: P(zero) = rate, survivors scaled by 1 / (1 - rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # Triangular(left=0, mode=1, right=1) has CDF t**2, so P(t*t < keep) = keep.
    t = jax.random.triangular(key, 0.0, 1.0, 1.0, shape=x.shape, dtype=jnp.float32)
    survive = t * t < keep
    return lax.select(survive, (x / keep).astype(x.dtype), jnp.zeros_like(x))


class _HiddenDense:
    """relu(h @ w + b) for one hidden layer of the params dict."""

    def __init__(self, layer):
        self.w = layer["w"]
        self.b = layer["b"]

    def __call__(self, h):
        return jax.nn.relu(jnp.dot(h, self.w) + self.b)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU, one key per layer."""
    layer_keys = iter(jax.random.split(key, 2))

    def hidden(h, name):
        return dropout(next(layer_keys), _HiddenDense(params[name])(h), rate, train)

    h = functools.reduce(hidden, ("layer1", "layer2"), x)
    head = params["layer3"]
    return jnp.dot(h, head["w"]) + head["b"]
