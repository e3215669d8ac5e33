# BLIND-SET: 32
# EXERCISE: ex3
# WHAT: correct rewrite: a Sequential class built per call from (position, Dense NamedTuple) pairs sorted by the integer after "layer"; each Dense knows whether it is the output from its own position and the model's length, and the forward pass is functools.reduce over the layers.
# SHOULD-SAY: nothing to fix; layer order, ReLU placement and purity are all correct.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import functools
from typing import NamedTuple

import jax


class Dense(NamedTuple):
    w: jax.Array
    b: jax.Array
    is_output: bool

    def __call__(self, x):
        z = x @ self.w + self.b
        return z if self.is_output else jax.nn.relu(z)


class Sequential:
    """Layers layer1..layerN in numeric order."""

    PREFIX = "layer"

    def __init__(self, params):
        positions = sorted((int(name[len(self.PREFIX):]), name) for name in params)
        depth = len(positions)
        self.layers = tuple(
            Dense(w=params[name]["w"], b=params[name]["b"], is_output=(rank == depth - 1))
            for rank, (_, name) in enumerate(positions)
        )

    def __call__(self, x):
        return functools.reduce(lambda h, layer: layer(h), self.layers, x)


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    return Sequential(params)(x)
