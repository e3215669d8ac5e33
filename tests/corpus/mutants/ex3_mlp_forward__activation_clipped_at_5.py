"""The hidden activation is jnp.clip(z, 0, 5) ("bounded ReLU, to keep activations small"). From -3 to 3 it is
ReLU; the measurement far from 0 shows it stops at 5, and the deep case recomputed with that cap agrees, so
the mistake is charged once.
"""

import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "capped at 5", "max_failing": 1}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jnp.clip(x @ params[name]["w"] + params[name]["b"], 0.0, 5.0)
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
