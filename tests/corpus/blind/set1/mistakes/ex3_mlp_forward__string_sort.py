# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: I sorted the layer names as strings, so layer10 comes right after layer1.
# SHOULD-SAY: layers sorted as strings (layer10 after layer1)
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
