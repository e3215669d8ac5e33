"""ReLU after every layer, the output layer included."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.output_linear", "mistake": "ex3.relu_on_output", "max_failing": 1, "hint": "ReLU"}


def mlp_forward(params, x):
    for name in sorted(params, key=lambda name: int(name[5:])):
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x
