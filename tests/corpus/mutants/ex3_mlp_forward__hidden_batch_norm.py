"""Each hidden layer's values are normalised over the batch (a batch norm without its parameters) before the
ReLU. One network's output for an input alone differs from its output for the same input in a batch: the
measurement says each example depends on the others.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "across the batch axis", "max_failing": 2, "also": ["ex3.deep"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        z = x @ params[name]["w"] + params[name]["b"]
        z = (z - z.mean(axis=0)) / jnp.sqrt(z.var(axis=0) + 1e-5)
        x = jax.nn.relu(z)
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
