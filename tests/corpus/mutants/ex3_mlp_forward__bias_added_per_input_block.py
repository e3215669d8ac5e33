"""Each layer's product is computed in two blocks of its input features (x[:, :h] @ w[:h] and x[:, h:] @ w[h:])
and each block adds the bias before the two are summed: every layer adds 2 b.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "add b after the sum", "max_failing": 1,
          "also": ["ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def _layer(layer, h):
    half = h.shape[-1] // 2
    parts = [h[:, :half] @ layer["w"][:half] + layer["b"], h[:, half:] @ layer["w"][half:] + layer["b"]]
    return parts[0] + parts[1]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(_layer(params[name], x))
    return _layer(params[names[-1]], x)
