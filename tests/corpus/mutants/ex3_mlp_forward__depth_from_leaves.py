"""The depth is len(jax.tree.leaves(params)): that counts w and b, twice the number of layers."""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.depth_not_from_params", "hint": "depth must come from params",
          "max_failing": 1, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    depth = len(jax.tree.leaves(params))
    for i in range(1, depth):
        layer = params[f"layer{i}"]
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    last = params[f"layer{depth}"]
    return x @ last["w"] + last["b"]
