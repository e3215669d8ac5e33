# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Layers are ordered by int(name.lstrip('layer')); lstrip removes any of the characters l, a, y, e, r from the left, which never touches the digits, so layer10 sorts after layer9.
# SHOULD-SAY: full marks for ex3; every check of ex3 passes.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.lstrip("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
