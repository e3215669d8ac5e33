# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: jax.nn.relu(x) is called on its own line without assigning the result, so no ReLU is applied and the network is linear.
# SHOULD-SAY: no ReLU is applied after the hidden layers (jax.nn.relu returns a new array; its result is discarded)
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = x @ params[name]["w"] + params[name]["b"]
        jax.nn.relu(x)
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
