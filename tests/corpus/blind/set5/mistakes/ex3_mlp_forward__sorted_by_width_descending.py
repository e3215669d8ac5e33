# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: the layer order is inferred by sorting layers by input width, widest first (true for the lesson's 784-256-128-10 funnel), instead of by the number in the layer name, so models with equal or non-decreasing widths are run in the wrong order (or the dict's insertion order on ties).
# SHOULD-SAY: ex3 mlp_forward fails on models whose widths do not shrink layer by layer: order the layers by the number in their names (layer1..layerN, layer10 after layer9), not by weight shapes. The funnel-shaped lesson model works.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers from the widest input to the narrowest."""
    names = sorted(params, key=lambda name: -params[name]["w"].shape[0])
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
