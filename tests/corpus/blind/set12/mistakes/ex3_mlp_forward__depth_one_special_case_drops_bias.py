# BLIND-SET: 12
# EXERCISE: ex3
# WHAT: A special case for a single-layer network returns x @ w and forgets the bias; every deeper network is handled correctly.
# SHOULD-SAY: Only depth 1 is wrong: with one layer the output lacks the bias (x @ w instead of x @ w + b). Depths 2, 3, 5 and 12, numeric layer order, ReLU placement, jit and params immutability are all fine.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    if len(names) == 1:
        return x @ params[names[0]]["w"]
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
