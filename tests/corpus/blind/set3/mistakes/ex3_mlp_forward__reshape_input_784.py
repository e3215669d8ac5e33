# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Starts with x = x.reshape(-1, 784) (copied from the MNIST code), which breaks any network whose input width is not 784.
# SHOULD-SAY: the input width 784 is hard-coded; the widths must come from the params (x is (B, d0) for any d0)
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    x = x.reshape(-1, 784)  # flatten the images
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
