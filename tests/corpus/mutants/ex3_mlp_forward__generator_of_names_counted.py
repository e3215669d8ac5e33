"""mlp_forward makes the layer names a generator, counts them with sum(1 for _ in names), then loops over the same
generator, now used up: no layer runs and x comes back unchanged at every depth.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "ran zero times", "max_failing": 2, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = (f"layer{i}" for i in range(1, len(params) + 1))
    depth = sum(1 for _ in names)
    for i, name in enumerate(names, start=1):
        layer = params[name]
        x = x @ layer["w"] + layer["b"]
        if i < depth:
            x = jax.nn.relu(x)
    return x
