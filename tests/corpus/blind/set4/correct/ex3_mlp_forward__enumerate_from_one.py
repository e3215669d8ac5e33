# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Names sorted numerically, then enumerate(names, start=1) with ReLU while i < len(names).
# SHOULD-SAY: full marks
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for i, name in enumerate(names, start=1):
        x = x @ params[name]["w"] + params[name]["b"]
        if i < len(names):
            x = jax.nn.relu(x)
    return x
