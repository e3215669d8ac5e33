# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: the output layer is recognised by having 10 output units (the lesson's 10 classes): ReLU is skipped on any layer whose w has 10 columns and applied to every other layer, so models whose last width is not 10 get a ReLU on the output and hidden layers of width 10 lose their ReLU.
# SHOULD-SAY: ex3 mlp_forward fails for widths other than the lesson's: the last layer must be found from the layer order (the highest-numbered layerN), not from an output width of 10; with other widths the output gets a ReLU or a hidden layer loses it. The lesson's 784-256-128-10 shape works.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names:
        layer = params[name]
        x = x @ layer["w"] + layer["b"]
        if layer["w"].shape[1] != 10:  # the output layer has one unit per class
            x = jax.nn.relu(x)
    return x
