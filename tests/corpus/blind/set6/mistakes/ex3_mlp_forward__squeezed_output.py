# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: The output is passed through .squeeze(): shapes are right for B > 1 and dN > 1, but a batch of one or a width-1 output layer loses an axis.
# SHOULD-SAY: ex3 output-shape check fails for a batch of 1 (shape (dN,) instead of (1, dN)) or a width-1 last layer (shape (B,) instead of (B, 1)); values are right. Only inputs with a size-1 axis reveal it.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return (x @ last["w"] + last["b"]).squeeze()
