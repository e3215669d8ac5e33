"""range(len(params)) builds the names layer0..layer{N-1}: an off-by-one in the layer count."""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.count_from_zero", "hint": "layer0", "max_failing": 1,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    n = len(params)
    for i in range(n - 1):
        layer = params[f"layer{i}"]
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    last = params[f"layer{n - 1}"]
    return x @ last["w"] + last["b"]
