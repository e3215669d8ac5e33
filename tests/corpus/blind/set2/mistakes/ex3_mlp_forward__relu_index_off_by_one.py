# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: I wrote `if i > 0: relu` instead of `if i < n - 1`, so the first layer has no ReLU and the output gets one.
# SHOULD-SAY: ReLU placement: missing after layer1, present on output
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for i, name in enumerate(names):
        x = x @ params[name]["w"] + params[name]["b"]
        if i > 0:
            x = jax.nn.relu(x)
    return x
