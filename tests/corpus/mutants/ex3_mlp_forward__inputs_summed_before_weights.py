"""Each layer multiplies the sum of x's entries by the column sums of w (a broadcast written to avoid a matmul),
so which input is set makes no difference: one 3x3 layer gives the same row for every unit vector."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "over the same i", "max_failing": 2,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for i, name in enumerate(names):
        x = jnp.sum(x, axis=-1, keepdims=True) * jnp.sum(params[name]["w"], axis=0) + params[name]["b"]
        if i < len(names) - 1:
            x = jax.nn.relu(x)
    return x
