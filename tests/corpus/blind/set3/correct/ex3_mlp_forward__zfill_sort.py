# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Orders the layer names by left-padding them with zeros to the longest name's length (name.zfill(width)), so shorter numbers sort first and string order equals numeric order.
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP, layer order from zero-padded names."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    width = max(len(name) for name in params)
    names = sorted(params, key=lambda name: name.zfill(width))
    *hidden, output = names
    for name in hidden:
        layer = params[name]
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ params[output]["w"] + params[output]["b"]
