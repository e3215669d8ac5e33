# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Weights are taken in numeric layer order, but the biases are collected with jax.tree.leaves (which sorts dict keys as strings: layer1, layer10, layer11, layer12, layer2, ...). Correct up to 9 layers; with 10+ layers biases are mismatched (wrong values or a shape error).
# SHOULD-SAY: ex3 depth-12 check fails (bias order follows string sort); depths 1-5 pass.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    biases = [leaf for leaf in jax.tree.leaves(params) if leaf.ndim == 1]
    for name, b in zip(names[:-1], biases[:-1]):
        x = jax.nn.relu(x @ params[name]["w"] + b)
    return x @ params[names[-1]]["w"] + biases[-1]
