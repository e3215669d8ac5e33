"""Depth from len(params), layers looked up as layer1..layerN."""

import jax


def mlp_forward(params, x):
    depth = len(params)
    for i in range(1, depth):
        layer = params[f"layer{i}"]
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    out = params[f"layer{depth}"]
    return x @ out["w"] + out["b"]
