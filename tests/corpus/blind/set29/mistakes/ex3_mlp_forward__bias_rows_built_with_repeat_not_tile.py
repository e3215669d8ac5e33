# BLIND-SET: 29
# EXERCISE: ex3
# WHAT: each layer's bias is expanded to a (B, d) matrix with jnp.repeat(b, B).reshape(B, -1) before adding it; repeat duplicates each element B times in place ([b0, b0, ..., b1, b1, ...]), so row r gets a scrambled run of bias entries instead of b; the result is right only for a batch of one (or an all-equal bias).
# SHOULD-SAY: jnp.repeat repeats elements, jnp.tile repeats the whole array; reshaping the repeated vector does not give B copies of b. Use jnp.tile(b, (B, 1)), or better let broadcasting do it: h @ w + b.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    B = x.shape[0]

    def affine(h, layer):
        bias_rows = jnp.repeat(layer["b"], B).reshape(B, -1)  # b copied onto every row: (B, d)
        return h @ layer["w"] + bias_rows

    for name in names[:-1]:
        x = jax.nn.relu(affine(x, params[name]))
    return affine(x, params[names[-1]])
