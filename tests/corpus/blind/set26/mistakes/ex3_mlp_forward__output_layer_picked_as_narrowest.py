# BLIND-SET: 26
# EXERCISE: ex3
# WHAT: the output layer is taken to be the narrowest one (min over the bias widths, "the 10-class layer") and the others run as hidden layers in numeric order; right for the lesson's shrinking 784-256-128-10 net and at depth 1, but with equal widths layer1 is taken as the output, and with a widening or uneven net a hidden layer is, so layers run out of order (wrong values or a shape error).
# SHOULD-SAY: the layer order is wrong whenever the last layer is not the strictly narrowest (equal widths, widening or uneven widths): the output layer is chosen by width instead of by position; the output layer is layerN, the last name in numeric order, whatever its width.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    # the output layer is the narrow one (10 classes); the rest are hidden layers
    out_name = min(names, key=lambda name: params[name]["b"].shape[0])
    for name in [n for n in names if n != out_name]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[out_name]
    return x @ last["w"] + last["b"]
