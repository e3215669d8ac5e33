# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Uses jax.nn.leaky_relu (negative slope 0.01) for the hidden activation instead of ReLU.
# SHOULD-SAY: the hidden activation is not ReLU (negative pre-activations leak through); use jax.nn.relu
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.leaky_relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
