"""mlp_forward builds a table of steps keyed "0", "1", "2", ... (each layer's affine map at an even key, a ReLU
at each odd key between layers) and runs them in sorted(table) order. Up to five layers (nine steps) that is the
right order; from six layers on "10" sorts before "2" and the steps run out of order.
"""

import functools

import jax

EXPECT = {"check": "ex3.deep", "mistake": "ex3.modules_string_order", "hint": "int(key)", "max_failing": 1}


def _affine(layer, h):
    return h @ layer["w"] + layer["b"]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    table, index = {}, 0
    for i, name in enumerate(names):
        table[str(index)] = functools.partial(_affine, params[name])
        index += 1
        if i < len(names) - 1:
            table[str(index)] = jax.nn.relu
            index += 1
    for key in sorted(table):
        x = table[key](x)
    return x
