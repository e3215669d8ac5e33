# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: depth/order from int(name.partition('layer')[2]); layers fetched with map(params.__getitem__, ...); each layer is jnp.linalg.multi_dot([x, w]) + b.
# SHOULD-SAY: full marks
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    order = sorted(params, key=lambda name: int(name.partition("layer")[2]))
    *hidden, last = list(map(params.__getitem__, order))
    for layer in hidden:
        x = jax.nn.relu(jnp.linalg.multi_dot([x, layer["w"]]) + layer["b"])
    return jnp.linalg.multi_dot([x, last["w"]]) + last["b"]
