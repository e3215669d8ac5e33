# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: I sorted the layer names as strings (`sorted(params)`), so layer10..layer12 run right after layer1.
# SHOULD-SAY: layers string-sorted: layer10 before layer2
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
