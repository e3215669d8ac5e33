# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: params are converted (read-only) into a list of Dense NamedTuples sorted by (len(name), name) with a callable __call__ using jnp.einsum; the network is a list of (layer, activation) pairs with jax.nn.relu for hidden layers and identity for the last, folded in a for loop.
# SHOULD-SAY: full marks
"""Exercise 3: an MLP of any depth built from small Dense records."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Dense(NamedTuple):
    w: jax.Array
    b: jax.Array

    def __call__(self, x):
        return jnp.einsum("bi,io->bo", x, self.w) + self.b


def _identity(x):
    return x


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    ordered = sorted(params, key=lambda name: (len(name), name))
    layers = [Dense(params[n]["w"], params[n]["b"]) for n in ordered]
    activations = [jax.nn.relu] * (len(layers) - 1) + [_identity]
    for layer, act in zip(layers, activations):
        x = act(layer(x))
    return x
