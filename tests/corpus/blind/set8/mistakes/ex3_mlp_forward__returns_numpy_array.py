# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: The result is converted with np.asarray before returning (to print or plot it); values are right eagerly, but under jax.jit the conversion of a tracer raises.
# SHOULD-SAY: ex3: mlp_forward returns a NumPy array and fails under jax.jit (TracerArrayConversionError); eager values are right.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import numpy as np


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return np.asarray(x @ last["w"] + last["b"])
