# BLIND-SET: 25
# EXERCISE: ex3
# WHAT: the hidden ReLU is written as (h + jnp.abs(h)) // 2 with floor division, so every hidden activation is floored to a whole number (0.7 becomes 0, 1.9 becomes 1). Depth 1 is unaffected (no hidden layer); at every depth >= 2 the outputs differ from the reference.
# SHOULD-SAY: `//` is floor division even on float arrays: the ReLU formula needs true division, (h + jnp.abs(h)) / 2, or simply jax.nn.relu(h).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        h = x @ params[name]["w"] + params[name]["b"]
        x = (h + jnp.abs(h)) // 2
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
