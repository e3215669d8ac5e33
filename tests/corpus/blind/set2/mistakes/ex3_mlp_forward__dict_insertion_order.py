# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: I iterated over the params dict in its insertion order, assuming the layers are listed layer1..layerN.
# SHOULD-SAY: relies on dict order instead of numeric layer order
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = list(params)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
