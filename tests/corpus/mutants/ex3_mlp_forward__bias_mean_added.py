"""Each layer adds the mean of its bias vector, x @ w + jnp.mean(b), a scalar: every unit of a layer gets the same
bias.
"""

import jax.numpy as jnp
import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "the whole vector b", "max_failing": 2, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + jnp.mean(params[name]["b"]))
    last = params[names[-1]]
    return x @ last["w"] + jnp.mean(last["b"])
