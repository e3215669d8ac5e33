"""Reshapes each bias to a (1, out) row by assigning into the params dict it was given."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.params_unchanged", "mistake": "params_mutated", "max_failing": 1, "hint": "changed the params"}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name[5:]))
    for name in names:
        params[name]["b"] = jnp.reshape(params[name]["b"], (1, -1))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
