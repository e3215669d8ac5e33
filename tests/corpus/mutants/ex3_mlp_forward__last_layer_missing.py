"""The loop runs the hidden layers (with ReLU) and returns: the output layer is never applied."""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.last_layer_missing", "hint": "last layer never ran",
          "max_failing": 1, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x
