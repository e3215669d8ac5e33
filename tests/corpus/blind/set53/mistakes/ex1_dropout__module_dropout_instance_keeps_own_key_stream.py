# BLIND-SET: 53
# EXERCISE: ex1
# WHAT: `dropout` delegates to a module-level `KeyedDropout` instance that stores the first key it is ever given and afterwards splits its own stored key on every call, ignoring the key argument. Even the first mask differs from the reference's (it comes from a split of the key), the same key gives a different mask on each call, and under jax.jit the stored key is a leaked tracer so later calls raise.
# SHOULD-SAY: dropout keeps random state between calls: the instance saves the first key and advances its own copy, so the same key does not give the same mask and the given key is ignored. Keep no key on the instance; draw the mask from the key passed in (`jax.random.bernoulli(key, 1 - rate, x.shape)`).
"""Exercise 1: dropout with split PRNG keys, written with small classes."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------


class KeyedDropout:
    """Dropout that owns a key stream, like a framework's RNG module."""

    def __init__(self):
        self.key = None

    def next_key(self, key):
        if self.key is None:
            self.key = key
        self.key, sub = jax.random.split(self.key)
        return sub

    def __call__(self, key, x, rate, train=True):
        if not train or rate == 0:
            return x
        keep = 1.0 - rate
        mask = jax.random.bernoulli(self.next_key(key), keep, x.shape)
        return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


_DROPOUT = KeyedDropout()


class Layer:
    def __init__(self, w, b, hidden=True):
        self.w, self.b, self.hidden = w, b, hidden

    def __call__(self, h):
        z = h @ self.w + self.b
        return jax.nn.relu(z) if self.hidden else z


class MLP:
    def __init__(self, params):
        self.layers = [
            Layer(params["layer1"]["w"], params["layer1"]["b"]),
            Layer(params["layer2"]["w"], params["layer2"]["b"]),
            Layer(params["layer3"]["w"], params["layer3"]["b"], hidden=False),
        ]

    def __call__(self, x, key, rate, train):
        keys = list(jax.random.split(key, 2))
        for layer in self.layers:
            x = layer(x)
            if layer.hidden:
                x = dropout(keys.pop(0), x, rate, train)
        return x


def dropout(key, x, rate, train=True):
    return _DROPOUT(key, x, rate, train)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    return MLP(params)(x, key, rate, train)
