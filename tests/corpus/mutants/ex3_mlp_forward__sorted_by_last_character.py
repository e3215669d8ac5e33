"""The layers are sorted by the last character of their name: layer10 ('0') comes first, layer11 after layer1.

Up to nine layers that is the numeric order, so ex3.depths passes; the 12 layers run in the order
layer10, layer1, layer11, layer2, layer12, layer3, ..., which the prefixes measure and the report quotes."""

import jax

EXPECT = {"check": "ex3.deep", "mistake": "ex3.layer_order", "hint": "int(name.removeprefix('layer'))",
          "max_failing": 2, "also": ["ex3.jit"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: name[-1])
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
