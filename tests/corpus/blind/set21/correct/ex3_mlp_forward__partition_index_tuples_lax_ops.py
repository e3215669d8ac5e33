# BLIND-SET: 21
# EXERCISE: ex3
# WHAT: correct: layer order from sorted (int, name) tuples built with str.partition("layer"); each layer is jax.lax.dot + jax.lax.add with a broadcast bias, and ReLU is jax.lax.max against zeros, applied by checking the position against the last index.
# SHOULD-SAY: full marks: layers applied in numeric order (layer10 after layer9) for any depth read from params, ReLU after every layer but the last, biases added, params left untouched, same results under jax.jit.
"""Exercise 3: a depth-agnostic MLP written with jax.lax primitives."""

import jax
import jax.numpy as jnp


def _layer_index(name):
    _, _, digits = name.partition("layer")
    return int(digits)


def _affine(layer, h):
    z = jax.lax.dot(h, layer["w"])
    return jax.lax.add(z, jax.lax.broadcast_in_dim(layer["b"], z.shape, (z.ndim - 1,)))


def mlp_forward(params, x):
    """x through layer1..layerN in numeric order; ReLU after all but layerN."""
    ordered = sorted((_layer_index(name), name) for name in params)
    last = len(ordered) - 1
    h = x
    for position, (_, name) in enumerate(ordered):
        h = _affine(params[name], h)
        if position != last:
            h = jax.lax.max(h, jnp.zeros_like(h))
    return h
