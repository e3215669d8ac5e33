"""A helper turns each weight into a torch-style (out, in) matrix with jnp.reshape(w, (out, in)) and applies it
as x @ W.T: a reshape where a transpose belongs, so every non-square weight is scrambled (a square one comes out
transposed).
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.weights_reshaped", "hint": "memory order", "max_failing": 1,
          "also": ["ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def _linear(layer, h):
    fan_in, fan_out = layer["w"].shape
    weight = jnp.reshape(layer["w"], (fan_out, fan_in))  # (out, in), as torch stores it
    return h @ weight.T + layer["b"]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(_linear(params[name], x))
    return _linear(params[names[-1]], x)
