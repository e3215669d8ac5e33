# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Adds the bias after the ReLU in hidden layers (relu(x @ w) + b) instead of inside it.
# SHOULD-SAY: hidden layers must compute relu(x @ w + b); the bias is added after the ReLU
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"]) + params[name]["b"]
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
