"""Each row of x is divided by its L2 norm before the layers and the output multiplied back by it, "to keep the
activations in range": exact only without biases, since relu(x / s @ w + b) * s is relu(x @ w + s * b). Every
bias of a row ends up multiplied by that row's norm.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.biases_unscaled", "hint": "without biases", "max_failing": 1,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    norm = jnp.linalg.norm(x, axis=1, keepdims=True)
    norm = jnp.where(norm == 0, 1.0, norm)
    h = x / norm
    for name in names[:-1]:
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return (h @ last["w"] + last["b"]) * norm
