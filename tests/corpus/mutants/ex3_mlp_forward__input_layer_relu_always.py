"""layer1 is always followed by a ReLU, as the input layer: with one layer, that ReLU is on the output.

Two layers and more are right. A one-layer network's outputs are never negative: ex3.output_linear checks
every depth and names the ReLU on the output; ex3.depths, which leaves an activation on the output to it,
passes."""

EXPECT = {"check": "ex3.output_linear", "mistake": "ex3.relu_on_output", "hint": "return raw", "max_failing": 1}

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    x = jax.nn.relu(x @ params[names[0]]["w"] + params[names[0]]["b"])  # the input layer
    for name in names[1:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    if len(names) > 1:
        last = params[names[-1]]
        x = x @ last["w"] + last["b"]
    return x
