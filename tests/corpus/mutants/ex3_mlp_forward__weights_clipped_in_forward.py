"""mlp_forward clips every weight to [-3, 3] before using it, a guard against exploding weights: the grader's usual
params are all inside that range, so every graded case agrees; the same params ten times larger do not. The report
measures the 3-layer case with its params ten times larger."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.depends_on_weight_size", "hint": "ten times larger",
          "max_failing": 1}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ jnp.clip(params[name]["w"], -3.0, 3.0) + params[name]["b"])
    last = params[names[-1]]
    return x @ jnp.clip(last["w"], -3.0, 3.0) + last["b"]
