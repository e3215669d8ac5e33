"""The hidden ReLU is written as a mask computed from x @ w alone, then applied to x @ w + b: the gate ignores the
bias, so a unit whose product is negative but whose bias is larger stays off."""

import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.bias_not_in_relu", "hint": "acts on the sum with the bias",
          "max_failing": 1, "also": ["ex3.deep"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for j, name in enumerate(names):
        product = x @ params[name]["w"]
        x = product + params[name]["b"]
        if j < len(names) - 1:
            x = x * (product > 0)
    return x
