# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Hidden layers are sorted numerically, but the output layer is taken as the last key of the dict (`list(params)[-1]`). Right when the dict is in insertion order layer1..layerN; wrong (shape error or wrong layer last) when the layers are listed in another order.
# SHOULD-SAY: ex3 shuffled-order check fails (output layer chosen by dict position); in-order params pass.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    last_name = list(params)[-1]  # the output layer is the last one in the dict
    hidden = sorted((n for n in params if n != last_name), key=lambda n: int(n.removeprefix("layer")))
    for name in hidden:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[last_name]
    return x @ last["w"] + last["b"]
