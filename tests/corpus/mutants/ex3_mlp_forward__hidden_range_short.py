"""The hidden-layer loop stops one layer early (range(1, depth - 1)): the last hidden layer is skipped, ReLU is there.

The activation is ReLU wherever a hidden layer runs, so the report must not say "no activation"; the prefix
measurements show that a layer has no effect on the output. Depths 2 and up fail (shapes that do not fit, or a wrong answer), and so do the 12 layers of ex3.deep."""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "has no effect on the output", "max_failing": 2, "also": ["ex3.deep"]}


def mlp_forward(params, x):
    depth = len(params)
    for i in range(1, depth - 1):
        layer = params[f"layer{i}"]
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    out = params[f"layer{depth}"]
    return x @ out["w"] + out["b"]
