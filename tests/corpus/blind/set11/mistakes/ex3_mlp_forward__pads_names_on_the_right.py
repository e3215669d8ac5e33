# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: layer names are padded to equal length with str.ljust(10, '0') before sorting, which pads on the wrong side (layer1 and layer10 tie, layer2 sorts after layer12).
# SHOULD-SAY: ex3: with 10 or more layers the layer order is wrong (layer10-12 are placed before layer2), so the 12-layer check fails; shallow depths pass.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: name.ljust(10, "0"))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
