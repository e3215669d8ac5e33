# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Applies layer1 with ReLU before the loop and then loops over the remaining layers, so a one-layer network gets a ReLU on its output.
# SHOULD-SAY: with a single layer (N=1) the output gets a ReLU; the only layer is the last and must stay linear
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    first, rest = names[0], names[1:]
    x = jax.nn.relu(x @ params[first]["w"] + params[first]["b"])
    for name in rest[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    if rest:
        last = params[rest[-1]]
        x = x @ last["w"] + last["b"]
    return x
