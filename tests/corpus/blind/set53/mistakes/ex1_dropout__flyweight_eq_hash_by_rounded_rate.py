# BLIND-SET: 53
# EXERCISE: ex1
# WHAT: `Dropout` defines `__eq__`/`__hash__` on `round(rate, 1)` and layers are shared through a module dict (`_LAYERS.setdefault(layer, layer)`), so a rate that rounds like an earlier one reuses the earlier layer's rate: after dropout(..., 0.2) a call with rate 0.25 drops and rescales at 0.2 (scale 1.25 instead of 1.333), and after rate 0 a call with rate 0.04 returns x unchanged. The first rate in each rounding bucket is right.
# SHOULD-SAY: dropout uses the wrong rate for some rates (the zero fraction and the 1/(1-rate) scale belong to an earlier call's rate): `__eq__`/`__hash__` on the rounded rate make different rates equal, so the shared-layer dict returns a stale layer. Compare the exact rate (or just build a fresh Dropout per call).
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


class Dropout:
    """Inverted dropout; layers with the same rate are shared (flyweight)."""

    def __init__(self, rate):
        self.rate = rate
        self.keep = 1.0 - rate

    # round so that 0.3 and 0.30000000000000004 count as the same layer
    def __eq__(self, other):
        return isinstance(other, Dropout) and round(self.rate, 1) == round(other.rate, 1)

    def __hash__(self):
        return hash(round(self.rate, 1))

    def __call__(self, key, x, train=True):
        if not train or self.rate == 0:
            return x
        mask = jax.random.bernoulli(key, self.keep, x.shape)
        return jnp.where(mask, x / self.keep, 0.0).astype(x.dtype)

    @classmethod
    def shared(cls, rate):
        layer = cls(rate)
        return _LAYERS.setdefault(layer, layer)


_LAYERS = {}


class Block:
    def __init__(self, layer, rate=None):
        self.w, self.b = layer["w"], layer["b"]
        self.drop = Dropout.shared(rate) if rate is not None else None

    def __call__(self, h, key=None, train=True):
        z = h @ self.w + self.b
        if self.drop is None:
            return z
        return self.drop(key, jax.nn.relu(z), train)


def dropout(key, x, rate, train=True):
    return Dropout.shared(rate)(key, x, train)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k1, k2 = jax.random.split(key)
    h = Block(params["layer1"], rate)(x, k1, train)
    h = Block(params["layer2"], rate)(h, k2, train)
    return Block(params["layer3"])(h)
