# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Layer names are unpacked as first, *middle, last, which raises for a one-layer MLP.
# SHOULD-SAY: fails for N = 1 (a single layer, which must be linear); the unpacking assumes at least two layers
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    first, *middle, last_name = names
    x = jax.nn.relu(x @ params[first]["w"] + params[first]["b"])
    for name in middle:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[last_name]
    return x @ last["w"] + last["b"]
