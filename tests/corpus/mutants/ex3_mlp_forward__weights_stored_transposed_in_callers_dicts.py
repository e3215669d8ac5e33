"""mlp_forward keeps a torch-style (out, in) copy of each weight, stored back into the layer dicts of a shallow
copy of params (dict(params) copies only the top level): the caller's params are changed, so a later call
transposes them again and its shapes no longer fit (a jitted call raises).
"""

import jax

EXPECT = {"check": "ex3.params_unchanged", "mistake": "params_mutated", "hint": "functional", "max_failing": 2,
          "also": ["ex3.jit"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    layers = dict(params)
    names = sorted(layers, key=lambda name: int(name.removeprefix("layer")))
    for name in names:
        layers[name]["w"] = layers[name]["w"].T  # (out, in), as torch keeps it
    h = x
    for i, name in enumerate(names):
        h = h @ layers[name]["w"].T + layers[name]["b"]
        if i < len(names) - 1:
            h = jax.nn.relu(h)
    return h
