# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: The hidden layers write to h, but the last layer is applied to the original input x (variable mix-up), so the hidden layers are skipped.
# SHOULD-SAY: the output is computed from the input, not from the last hidden layer (wrong for depth >= 2)
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    h = x
    for name in names[:-1]:
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
