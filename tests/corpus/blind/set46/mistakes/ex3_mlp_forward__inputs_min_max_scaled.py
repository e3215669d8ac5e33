# BLIND-SET: 46
# EXERCISE: ex3
# WHAT: x is min-max scaled to [0, 1] with the batch's global minimum and maximum before the first layer, so the network sees (x - min) / (max - min) instead of x; outputs differ at every depth unless x already spans exactly [0, 1], and each example's output depends on the rest of the batch.
# SHOULD-SAY: the input is rescaled before the first layer; mlp_forward must feed x through the layers as given. Remove the min-max scaling (preprocessing belongs outside the model).
"""Exercise 3: a generic MLP with scaled covariates."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    order = sorted(params, key=lambda name: int(name[len("layer"):]))
    lo, hi = jnp.min(x), jnp.max(x)
    h = (x - lo) / (hi - lo)            # covariates on a common [0, 1] scale
    for name in order[:-1]:
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
    out = params[order[-1]]
    return h @ out["w"] + out["b"]
