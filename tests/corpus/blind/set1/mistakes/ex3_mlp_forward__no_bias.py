# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: I forgot to add the bias in the hidden layers.
# SHOULD-SAY: bias missing
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
