# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: The hidden activation is written jnp.max(z, 0), a reduction over axis 0 (the batch), instead of the elementwise jnp.maximum(z, 0): the first hidden layer collapses the batch to one vector (the next one to a scalar); depth 1 is unaffected.
# SHOULD-SAY: ex3 checks at depth >= 2 fail: depth 2 returns shape (dN,) instead of (B, dN), depth >= 3 raises a matmul error on a 0-d array, because jnp.max(z, 0) reduces over axis 0 rather than computing ReLU (jnp.maximum); depth 1 passes.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jnp.max(x @ params[name]["w"] + params[name]["b"], 0)
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
