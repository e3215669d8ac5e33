"""Each layer divides x @ w by its input width ("to keep activations in range"): a mean over the inputs where the
product sums them. One 3x3 layer applies w / 3, measured."""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "nothing scales the weights or the product",
          "max_failing": 2, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for j, name in enumerate(names):
        x = x @ params[name]["w"] / x.shape[-1] + params[name]["b"]
        if j < len(names) - 1:
            x = jax.nn.relu(x)
    return x
