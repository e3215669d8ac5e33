"""Each layer's place in the order is looked up by the id of its dict ({id(layer): i}): where layers share one
dict (tied weights) every one of them gets the last place, and no ReLU runs between them.
"""

import jax

EXPECT = {"check": "ex3.deep", "mistake": "ex3.relu_by_identity", "hint": "Decide by position", "max_failing": 1}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    place = {id(params[name]): i for i, name in enumerate(names)}
    for name in names:
        layer = params[name]
        x = x @ layer["w"] + layer["b"]
        if place[id(layer)] < len(names) - 1:
            x = jax.nn.relu(x)
    return x
