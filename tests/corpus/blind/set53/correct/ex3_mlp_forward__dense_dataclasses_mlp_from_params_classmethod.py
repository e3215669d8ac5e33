# BLIND-SET: 53
# EXERCISE: ex3
# WHAT: Correct. Frozen `Dense` dataclass layers (a `ReLUDense` subclass adds jnp.maximum(., 0) on top of `super().__call__`), an `MLP.from_params` classmethod that orders layers by the integer a class-level regex reads from each name and makes the last one plain `Dense`, and a `depth` property. Same values as the reference at every depth; params untouched.
# SHOULD-SAY: Nothing to fix: every ex3 check passes.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (classes)."""

import dataclasses
import re

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Dense:
    """An affine layer ``h @ w + b``."""

    w: jax.Array
    b: jax.Array

    def __call__(self, h):
        return jnp.dot(h, self.w) + self.b


class ReLUDense(Dense):
    """A hidden layer: affine, then ReLU."""

    def __call__(self, h):
        return jnp.maximum(super().__call__(h), 0)


class MLP:
    """A stack of layers read off a ``{"layer<i>": {"w", "b"}}`` pytree."""

    name_pattern = re.compile(r"^layer(\d+)$")

    def __init__(self, layers):
        self.layers = tuple(layers)

    @classmethod
    def layer_number(cls, name):
        return int(cls.name_pattern.match(name).group(1))

    @classmethod
    def from_params(cls, params):
        ordered = sorted(params.items(), key=lambda item: cls.layer_number(item[0]))
        *hidden, (_, last) = ordered
        layers = [ReLUDense(layer["w"], layer["b"]) for _, layer in hidden]
        layers.append(Dense(last["w"], last["b"]))
        return cls(layers)

    @property
    def depth(self):
        return len(self.layers)

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth (see the stub's docstring)."""
    return MLP.from_params(params)(x)
