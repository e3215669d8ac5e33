# BLIND-SET: 28
# EXERCISE: ex3
# WHAT: Hidden activation written by hand as x + jnp.abs(x) / 2 (missing parentheses): positives become 1.5x and negatives 0.5x instead of max(x, 0). Wrong at every depth >= 2.
# SHOULD-SAY: The hidden activation is not ReLU: operator precedence divides only |x| by 2. Write (x + jnp.abs(x)) / 2, or simply jax.nn.relu(x).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = x @ params[name]["w"] + params[name]["b"]
        x = x + jnp.abs(x) / 2
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
