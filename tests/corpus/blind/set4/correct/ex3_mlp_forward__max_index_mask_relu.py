# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Depth is the largest layer number in the names; layers are visited with range and f-strings, ReLU written as z * (z > 0).
# SHOULD-SAY: full marks
"""Exercise 3: an MLP of any depth."""

import jax.numpy as jnp


def mlp_forward(params, x):
    n = max(int(name[len("layer"):]) for name in params)
    for i in range(1, n + 1):
        layer = params[f"layer{i}"]
        z = jnp.dot(x, layer["w"]) + layer["b"]
        x = z * (z > 0) if i < n else z
    return x
