"""The hidden layers' weights are read through jax.lax.stop_gradient ("keep the feature extractor frozen, train
only the head"). The forward values are exactly right, under jit too; only the gradient through mlp_forward
shows it: 0 for every hidden weight matrix, right for the biases and the output layer.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.jit", "mistake": "ex3.gradient_blocked", "hint": "stop_gradient", "max_failing": 1}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        w = jax.lax.stop_gradient(params[name]["w"])
        x = jax.nn.relu(x @ w + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
