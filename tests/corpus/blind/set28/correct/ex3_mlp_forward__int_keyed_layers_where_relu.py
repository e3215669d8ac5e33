# BLIND-SET: 28
# EXERCISE: ex3
# WHAT: Correct rewrite: layers re-keyed by their integer index (from the digits of each name) in a new dict, walked in sorted integer order, ReLU as jnp.where on every layer but the last.
# SHOULD-SAY: Nothing to fix: numeric layer order, ReLU placement and params left unmodified are all right.
"""Exercise 3: a generic MLP (rewritten)."""

import jax.numpy as jnp


def mlp_forward(params, x):
    by_index = {int("".join(c for c in name if c.isdigit())): layer for name, layer in params.items()}
    order = sorted(by_index)
    h = x
    for pos, i in enumerate(order):
        h = jnp.matmul(h, by_index[i]["w"]) + by_index[i]["b"]
        if pos < len(order) - 1:
            h = jnp.where(h > 0, h, 0.0)
    return h
