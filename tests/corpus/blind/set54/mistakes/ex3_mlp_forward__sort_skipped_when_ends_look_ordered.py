# BLIND-SET: 54
# EXERCISE: ex3
# WHAT: To avoid sorting on every call, mlp_forward keeps the dict's own order when a cheap test passes: the first key is "layer1" and the last key is f"layer{N}". A dict whose ends are in place but whose middle layers are shuffled (e.g. layer1, layer3, layer2, layer4) is run in insertion order, so equal-width models give wrong outputs (unequal widths raise a shape error); fully ordered or reversed dicts are right.
# SHOULD-SAY: Checking only the first and last names does not prove the layers are in order; any shuffle in the middle is applied as is. Always order the layers by their number (sorted with key=int(name[5:])), which costs nothing next to the matmuls.
"""Exercise 3: a generic MLP that only sorts layer names when it has to."""

import jax
import jax.numpy as jnp


def _number(name):
    return int(name[5:])


def _layer_names(params):
    names = list(params)
    n = len(names)
    if names[0] == "layer1" and names[-1] == f"layer{n}":
        return names  # already in order, skip the sort
    return sorted(names, key=_number)


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = _layer_names(params)
    last = len(names) - 1
    h = x
    for i, name in enumerate(names):
        h = h @ params[name]["w"] + params[name]["b"]
        if i != last:
            h = jax.nn.relu(h)
    return h
