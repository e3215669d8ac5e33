# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: My sort key was `int(name[-1])`, the last character only, so layer10/11/12 sort as 0/1/2.
# SHOULD-SAY: numeric layer order wrong for layer10+
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name[-1]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
