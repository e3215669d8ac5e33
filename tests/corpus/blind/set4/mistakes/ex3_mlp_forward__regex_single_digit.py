# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: The sort key reads the layer number with re.search(r"\d") (one digit, no +), so layer10..layer12 sort as 1 next to layer1.
# SHOULD-SAY: layers are applied in the wrong order from layer10 on (layer10 must come after layer9): the number is read as one digit
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import re

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(re.search(r"\d", name).group()))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
