"""Each layer scales its product by sqrt(2 / fan_in) (He scaling, done in the forward pass as well as at
initialisation). One 3x3 layer measures the factor on w.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "nothing scales the weights", "max_failing": 2,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for j, name in enumerate(names):
        w, b = params[name]["w"], params[name]["b"]
        x = (x @ w) * jnp.sqrt(2.0 / w.shape[0]) + b
        if j < len(names) - 1:
            x = jax.nn.relu(x)
    return x
