"""ReLU only while ``i < len(names) - 2``: the last hidden layer goes without one.

With two layers there is no ReLU at all, which alone would read as "no activation"; the prefixes show
ReLU after layer1 of 3 and after layer1 and layer2 of 4, so the report says where ReLU ran instead.
The 12-layer check fails too: its order cannot be judged while the values differ."""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.relu_placement", "hint": "i < len(names) - 1", "max_failing": 2,
          "also": ["ex3.deep"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for i, name in enumerate(names):
        x = x @ params[name]["w"] + params[name]["b"]
        if i < len(names) - 2:
            x = jax.nn.relu(x)
    return x
