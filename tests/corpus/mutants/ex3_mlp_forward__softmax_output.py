"""Returns softmax probabilities instead of the logits."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.output_linear", "mistake": "ex3.softmax_output", "max_failing": 1, "hint": "softmax"}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name[5:]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return jax.nn.softmax(x @ params[names[-1]]["w"] + params[names[-1]]["b"])
