# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: the (name, layer) items are sorted by int(name[5:]) and split with star-unpacking into hidden layers and the last one; hidden layers use jnp.maximum(z, 0.0) as the ReLU and the last layer is affine only.
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP; *hidden, last = sorted layers."""

import jax.numpy as jnp


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth, layers in numeric order."""
    *hidden, (_, last) = sorted(params.items(), key=lambda item: int(item[0][5:]))
    for _, layer in hidden:
        x = jnp.maximum(x @ layer["w"] + layer["b"], 0.0)
    return x @ last["w"] + last["b"]
