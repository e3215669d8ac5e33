"""Layers are numbered by a module-level itertools.count shared by every call, and ReLU goes after a layer whose
number is below the number of layers less one: right on the first call only; later calls number their layers
from where the last one stopped and apply no ReLU. The report calls the 2-layer case first and again last.
"""


import itertools

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.calls_change", "hint": "nothing may outlive a call", "max_failing": 1}



_LAYER_NUMBERS = itertools.count()


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names:
        position = next(_LAYER_NUMBERS)
        x = x @ params[name]["w"] + params[name]["b"]
        if position < len(names) - 1:
            x = jax.nn.relu(x)
    return x
