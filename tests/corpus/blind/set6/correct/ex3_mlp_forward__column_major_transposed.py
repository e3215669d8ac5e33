# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Works column-major: activations are kept as (features, batch), each layer computes w.T @ h + b[:, None] with jnp.maximum(h, 0) as the ReLU, and the result is transposed back; names are ordered by int(name.partition("layer")[2]).
# SHOULD-SAY: full marks
"""Exercise 3: an MLP of any depth, read off the params pytree (column-major activations)."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.partition("layer")[2]))
    h = x.T  # (d0, B): one column per example
    for k, name in enumerate(names, start=1):
        h = params[name]["w"].T @ h + params[name]["b"][:, None]
        if k < len(names):
            h = jnp.maximum(h, 0.0)
    return h.T
