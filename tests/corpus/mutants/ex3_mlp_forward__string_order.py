"""Layers sorted as strings: layer10 runs before layer2."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.deep", "mistake": "ex3.string_order", "max_failing": 1, "hint": "string order"}


def mlp_forward(params, x):
    names = sorted(params)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
