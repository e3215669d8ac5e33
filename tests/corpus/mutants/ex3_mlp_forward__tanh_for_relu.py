"""jnp.tanh as the hidden activation instead of ReLU."""

import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.tanh_for_relu", "hint": "tanh", "max_failing": 1}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name[len("layer"):]))
    for name in names[:-1]:
        x = jnp.tanh(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
