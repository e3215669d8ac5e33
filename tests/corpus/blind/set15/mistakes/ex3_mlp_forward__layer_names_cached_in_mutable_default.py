# BLIND-SET: 15
# EXERCISE: ex3
# WHAT: mlp_forward caches the sorted layer names in a mutable default argument (_names=[]), filled on the first call only, so every later call reuses the first call's layer list whatever params it is given.
# SHOULD-SAY: The first call is right, but later calls with params of a different depth use the stale list of layer names from that first call: deeper networks silently lose layers (or ReLUs land in the wrong place), shallower ones raise KeyError. Depth and order must be read from the params of each call; do not cache them in a default argument (a `[]` default is created once and shared by all calls).
"""Exercise 3: an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x, _names=[]):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    if not _names:  # sort the layer names once, not on every call
        _names.extend(sorted(params, key=lambda name: int(name.removeprefix("layer"))))
    for name in _names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[_names[-1]]
    return x @ last["w"] + last["b"]
