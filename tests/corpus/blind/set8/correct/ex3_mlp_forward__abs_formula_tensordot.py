# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Depth is the largest layer number; layers are visited with range(1, depth+1), products use jnp.tensordot(axes=1) and ReLU is (z + |z|) / 2.
# SHOULD-SAY: full marks for ex3; every check of ex3 passes.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    depth = max(int(name[5:]) for name in params)
    for i in range(1, depth + 1):
        layer = params[f"layer{i}"]
        x = jnp.tensordot(x, layer["w"], axes=1) + layer["b"]
        if i < depth:
            x = (x + jnp.abs(x)) / 2  # ReLU
    return x
