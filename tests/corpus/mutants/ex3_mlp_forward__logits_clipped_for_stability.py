"""The logits are clipped to [-5, 5] "for numerical stability": right wherever the logits are small, wrong for
large ones. One layer returns x from -3 to 3 and stops at 5 beyond: measured far from 0."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "nothing may transform the input or the output",
          "max_failing": 1}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for j, name in enumerate(names):
        x = x @ params[name]["w"] + params[name]["b"]
        if j < len(names) - 1:
            x = jax.nn.relu(x)
    return jnp.clip(x, -5.0, 5.0)
