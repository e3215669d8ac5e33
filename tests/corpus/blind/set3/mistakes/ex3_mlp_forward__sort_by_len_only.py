# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Orders the layers with sorted(params, key=len), which puts layer10+ after layer9 but leaves layers of the same name length in dict order, so a dict listing its layers out of order runs them out of order.
# SHOULD-SAY: layers run in dict order, not numeric order, when the dict lists them shuffled; sort by the layer number
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    # shorter names first, so layer9 comes before layer10
    names = sorted(params, key=len)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
