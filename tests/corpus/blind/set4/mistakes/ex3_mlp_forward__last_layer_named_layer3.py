# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: ReLU is skipped only for the layer named "layer3" (the lesson's output layer) instead of for the last layer, whatever the depth.
# SHOULD-SAY: ReLU must follow every layer but the LAST (depth from params): here the output gets a ReLU unless depth is 3, and layer3 never has one
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names:
        x = x @ params[name]["w"] + params[name]["b"]
        if name != "layer3":  # no ReLU on the output layer
            x = jax.nn.relu(x)
    return x
