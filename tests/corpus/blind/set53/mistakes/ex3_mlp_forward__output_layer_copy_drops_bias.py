# BLIND-SET: 53
# EXERCISE: ex3
# WHAT: The output layer is made by `Dense.as_output()`, which copies the frozen dataclass as `type(self)(w=self.w, relu=False)` and drops `b` (whose default is 0.0), so the last layer has no bias: every output row lacks the + b_N term of the last layer. Hidden layers, order and ReLUs are right, and the output is exact when the last bias is zero.
# SHOULD-SAY: the output layer leaves out its bias: `as_output` rebuilds the Dense without `b`, which silently falls back to the 0.0 default. Copy with `dataclasses.replace(self, relu=False)` so every field is kept.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (classes)."""

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Dense:
    w: Any
    b: Any = 0.0  # bias-free layers are allowed
    relu: bool = True

    @classmethod
    def from_dict(cls, layer):
        return cls(w=layer["w"], b=layer["b"])

    def as_output(self):
        return type(self)(w=self.w, relu=False)

    def __call__(self, h):
        z = h @ self.w + self.b
        return jax.nn.relu(z) if self.relu else z


@dataclasses.dataclass
class Sequential:
    layers: list = dataclasses.field(default_factory=list)

    @classmethod
    def from_params(cls, params):
        names = sorted(params, key=lambda n: int(n.removeprefix("layer")))
        layers = [Dense.from_dict(params[n]) for n in names]
        layers[-1] = layers[-1].as_output()
        return cls(layers)

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def mlp_forward(params, x):
    return Sequential.from_params(params)(x)
