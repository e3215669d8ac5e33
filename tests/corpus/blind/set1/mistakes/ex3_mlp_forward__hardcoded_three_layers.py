# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: I hard-coded layer1..layer3 like the lesson's forward.
# SHOULD-SAY: depth hard-coded; must read layers from params
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = ["layer1", "layer2", "layer3"]
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
