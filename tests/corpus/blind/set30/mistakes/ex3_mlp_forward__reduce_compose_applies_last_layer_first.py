# BLIND-SET: 30
# EXERCISE: ex3
# WHAT: each layer becomes a closure (numeric order, ReLU on all but the last) and they are folded with functools.reduce(lambda f, g: lambda h: f(g(h)), layers); that composition applies the list right to left, so layerN runs first and layer1 last (with its ReLU on the output). Depth 1 is right; deeper nets raise a shape error with unequal widths and give wrong, ReLU-clipped outputs with equal widths.
# SHOULD-SAY: reduce with f(g(h)) builds f∘g, which runs g first, i.e. the layers in reverse. Compose as lambda h: g(f(h)) (or simply loop over the sorted layers) so that layer1 runs first and only the hidden layers get a ReLU.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import functools
from typing import Callable

import jax

Layer = Callable[[jax.Array], jax.Array]


def _dense(layer: dict, activation: bool) -> Layer:
    """One affine layer as a function h -> relu?(h @ w + b)."""

    def apply(h: jax.Array) -> jax.Array:
        out = h @ layer["w"] + layer["b"]
        return jax.nn.relu(out) if activation else out

    return apply


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    # One function per layer, in order; only the last has no activation.
    layers = [_dense(params[name], activation=(i < len(names) - 1)) for i, name in enumerate(names)]
    # Compose the whole network into a single function and apply it.
    network = functools.reduce(lambda f, g: lambda h: f(g(h)), layers)
    return network(x)
