# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: repeatedly selects and pops the lowest-numbered remaining layer from a shallow copy (selection by min); ReLU is written as h * jnp.heaviside(h, 0) and applied while layers remain.
# SHOULD-SAY: full marks
"""Exercise 3: an MLP of any depth by repeated minimum selection."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    remaining = dict(params)  # shallow copy: popping never touches the caller's dict
    while remaining:
        name = min(remaining, key=lambda n: int(n.removeprefix("layer")))
        layer = remaining.pop(name)
        x = jnp.matmul(x, layer["w"]) + layer["b"]
        if remaining:
            x = x * jnp.heaviside(x, 0.0)
    return x
