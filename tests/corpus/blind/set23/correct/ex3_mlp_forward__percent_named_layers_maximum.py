# BLIND-SET: 23
# EXERCISE: ex3
# WHAT: correct rewrite: depth is len(params); layers are fetched as "layer%d" % i for i = 1..depth, matmul via jnp.matmul, ReLU written as jnp.maximum(h, 0) on all but the last
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP, layers fetched by number."""

import jax.numpy as jnp


def mlp_forward(params, x):
    depth = len(params)
    h = x
    for i in range(1, depth + 1):
        layer = params["layer%d" % i]
        h = jnp.matmul(h, layer["w"]) + layer["b"]
        if i < depth:
            h = jnp.maximum(h, 0.0)
    return h
