"""The bias trick, misaligned: a column of ones is padded in front of the activations while the bias row is
stacked under the weights, so the ones pick up w[0], input i picks up row i + 1 and the last input the bias."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.rows_mispaired", "hint": "where the ones column is",
          "max_failing": 2, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    depth = len(params)
    for i in range(1, depth + 1):
        layer = params[f"layer{i}"]
        augmented = jnp.pad(x, ((0, 0), (1, 0)), constant_values=1.0)
        x = augmented @ jnp.vstack([layer["w"], layer["b"][None, :]])
        if i < depth:
            x = jax.nn.relu(x)
    return x
