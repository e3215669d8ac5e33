"""Each hidden layer is layer-normalised before its ReLU (a transformer-style MLP).
"""

import jax

EXPECT = {"check": "ex3.deep", "mistake": "", "hint": "across a layer", "max_failing": 2, "also": ["ex3.depths"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        h = x @ params[name]["w"] + params[name]["b"]
        h = (h - h.mean(axis=-1, keepdims=True)) / jax.numpy.sqrt(h.var(axis=-1, keepdims=True) + 1e-5)
        x = jax.nn.relu(h)
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
