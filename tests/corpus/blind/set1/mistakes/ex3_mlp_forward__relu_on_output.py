# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: I applied ReLU after every layer, including the last one.
# SHOULD-SAY: ReLU on the output layer
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x
