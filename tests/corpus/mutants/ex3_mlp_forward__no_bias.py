"""The biases are never added: each layer is x @ w."""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.no_bias", "hint": "biases were left out", "max_failing": 1,
          "also": ["ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"])
    return x @ params[names[-1]]["w"]
