# BLIND-SET: 16
# EXERCISE: ex3
# WHAT: the hidden activation is squared ReLU, relu(z)**2, instead of ReLU.
# SHOULD-SAY: the layers are found and ordered correctly from the params (any depth, layer10 after layer9), the output layer has no activation and params are not modified, but the hidden activation is relu(z)**2 rather than relu(z), so every network with at least one hidden layer gives wrong logits (a one-layer network is still right); use jax.nn.relu(z) without the square.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"]) ** 2
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
