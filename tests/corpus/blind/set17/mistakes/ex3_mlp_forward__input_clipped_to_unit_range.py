# BLIND-SET: 17
# EXERCISE: ex3
# WHAT: mlp_forward first clips the input to [0, 1] ("pixel intensities"), so any input with negative entries or entries above 1 is silently changed before layer1
# SHOULD-SAY: layer ordering (numeric), ReLU on hidden layers only, depth read from the params and no mutation are right, but the function must apply the layers to x as given: clipping x to [0, 1] changes the output for general inputs (e.g. standardised or Gaussian data); remove the preprocessing from mlp_forward
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import re

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------

_LAYER = re.compile(r"layer(\d+)$")


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    order = sorted(params, key=lambda k: int(_LAYER.match(k).group(1)))
    # inputs are images: keep them in the valid intensity range
    h = jnp.clip(x, 0.0, 1.0)
    *hidden, output = order
    for name in hidden:
        layer = params[name]
        h = jax.nn.relu(h @ layer["w"] + layer["b"])
    return h @ params[output]["w"] + params[output]["b"]
