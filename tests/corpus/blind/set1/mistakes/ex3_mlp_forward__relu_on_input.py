# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: I put the ReLU before each matmul instead of after it, so it is also applied to the raw input x.
# SHOULD-SAY: ReLU applied to the input x (wrong ReLU placement)
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names:
        x = jax.nn.relu(x)
        x = x @ params[name]["w"] + params[name]["b"]
    return x
