# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: A new dict keyed by the integer layer number is built (params untouched) and iterated in sorted order, with jnp.maximum(h, 0) as ReLU.
# SHOULD-SAY: full marks
"""Exercise 3: an MLP of any depth."""

import jax.numpy as jnp


def mlp_forward(params, x):
    layers = {int(name.removeprefix("layer")): layer for name, layer in params.items()}
    order = sorted(layers)
    for idx in order[:-1]:
        x = jnp.maximum(x @ layers[idx]["w"] + layers[idx]["b"], 0.0)
    out = layers[order[-1]]
    return x @ out["w"] + out["b"]
