"""mlp_forward builds one function per layer in a for loop, each reading the loop variable `name` when it is called:
by then `name` is the last layer's, so every layer computes with the last layer's weights (unequal widths crash
on the input meeting the last layer's weights).
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.every_layer_the_last", "hint": "bind it when the function is made",
          "max_failing": 2, "also": ["ex3.deep"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    layers = []
    for name in names:
        def layer(h):
            return h @ params[name]["w"] + params[name]["b"]
        layers.append(layer)
    for layer in layers[:-1]:
        x = jax.nn.relu(layer(x))
    return layers[-1](x)
