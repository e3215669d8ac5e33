# BLIND-SET: 53
# EXERCISE: ex1
# WHAT: Correct. A frozen `Dropout` dataclass (keep as a property, bernoulli mask from the given key, x returned itself when off), `Dense`/`HiddenBlock` dataclasses (HiddenBlock extends Dense via super()) and a `DropoutMLP` class that splits the key into one key per hidden block; masks and logits are identical to the reference for the same key.
# SHOULD-SAY: Nothing to fix: every ex1 check passes.
"""Exercise 1: dropout with split PRNG keys, written with small classes."""

import dataclasses

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Dropout:
    """Inverted dropout with a fixed rate."""

    rate: float = 0.5

    @property
    def keep(self):
        return 1.0 - self.rate

    def is_identity(self, train):
        return (not train) or self.rate == 0

    def __call__(self, key, x, train=True):
        if self.is_identity(train):
            return x
        survivors = jax.random.bernoulli(key, self.keep, x.shape)
        return jnp.where(survivors, x / self.keep, jnp.zeros_like(x))


@dataclasses.dataclass
class Dense:
    """An affine layer."""

    w: jax.Array
    b: jax.Array

    @classmethod
    def from_dict(cls, layer, **extra):
        return cls(layer["w"], layer["b"], **extra)

    def __call__(self, h):
        return h @ self.w + self.b


@dataclasses.dataclass
class HiddenBlock(Dense):
    """Dense -> ReLU -> dropout."""

    dropout: Dropout = dataclasses.field(default_factory=Dropout)

    def __call__(self, h, key, train=True):
        h = jax.nn.relu(super().__call__(h))
        return self.dropout(key, h, train)


class DropoutMLP:
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""

    hidden_names = ("layer1", "layer2")
    head_name = "layer3"

    def __init__(self, params, rate=0.5):
        drop = Dropout(rate)
        self.blocks = [HiddenBlock.from_dict(params[name], dropout=drop) for name in self.hidden_names]
        self.head = Dense.from_dict(params[self.head_name])

    def __call__(self, x, key, train=True):
        block_keys = jax.random.split(key, len(self.blocks))
        h = x
        for i, block in enumerate(self.blocks):
            h = block(h, block_keys[i], train)
        return self.head(h)


def dropout(key, x, rate, train=True):
    """Inverted dropout (see the stub's docstring)."""
    return Dropout(rate)(key, x, train)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU, one key per layer."""
    return DropoutMLP(params, rate)(x, key, train)
