# BLIND-SET: 27
# EXERCISE: ex3
# WHAT: The hidden loop runs i over range(1, len(names)) and takes the weight from names[i - 1] but the bias from names[i], i.e. each hidden layer gets the next layer's bias. Depth 1 is right (no hidden layer); with unequal widths every deeper net raises a broadcasting error, and with equal widths the outputs are wrong.
# SHOULD-SAY: Each layer's bias must come from the same layer as its weight: inside the loop use one name for both (layer = params[names[i - 1]]; x @ layer["w"] + layer["b"]). The index for the bias is off by one.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for i in range(1, len(names)):
        x = jax.nn.relu(x @ params[names[i - 1]]["w"] + params[names[i]]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
