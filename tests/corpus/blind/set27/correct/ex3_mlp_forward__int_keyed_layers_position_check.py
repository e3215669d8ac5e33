# BLIND-SET: 27
# EXERCISE: ex3
# WHAT: Correct rewrite: the layers are re-keyed by the integer after "layer" in a new dict, walked in sorted integer order with jnp.dot, and jnp.maximum(h, 0) is applied unless the position is the last one.
# SHOULD-SAY: Nothing to fix: numeric layer order read from the params (layer10 after layer9), ReLU after every layer but the last, params untouched, works under jit.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    by_index = {int(name[len("layer"):]): layer for name, layer in params.items()}
    order = sorted(by_index)
    h = x
    for position, index in enumerate(order):
        layer = by_index[index]
        h = jnp.dot(h, layer["w"]) + layer["b"]
        if position != len(order) - 1:
            h = jnp.maximum(h, 0.0)
    return h
