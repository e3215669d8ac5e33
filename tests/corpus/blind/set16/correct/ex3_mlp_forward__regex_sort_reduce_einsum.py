# BLIND-SET: 16
# EXERCISE: ex3
# WHAT: correct rewrite: layer names are ordered by the integer a regex pulls out of them, the layers are applied with functools.reduce, and each affine map is a jnp.einsum.
# SHOULD-SAY: everything is correct: the depth and numeric layer order (layer10 after layer9) come from the params, ReLU follows every layer but the last, the logits match the reference for any depth including N = 1, and params are not modified.
"""Exercise 3: an MLP of any depth, read off the params pytree (reduce/einsum version)."""

import functools
import re

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int(re.search(r"(\d+)$", name).group(1))


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    layers = [params[name] for name in sorted(params.keys(), key=_layer_number)]
    n_layers = len(layers)

    def apply(h, indexed_layer):
        i, layer = indexed_layer
        z = jnp.einsum("...i,io->...o", h, layer["w"]) + layer["b"]
        return z if i == n_layers - 1 else jax.nn.relu(z)

    return functools.reduce(apply, enumerate(layers), x)
