# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: hidden ReLU is done NumPy-style: copy to np.array and zero negatives in place with boolean indexing, then convert back.
# SHOULD-SAY: ex3: eager results are right, but mlp_forward fails under jax.jit (a tracer cannot be converted to a NumPy array); the jit check should error/fail.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp
import numpy as np


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        h = np.array(x @ params[name]["w"] + params[name]["b"])
        h[h < 0] = 0.0
        x = jnp.asarray(h)
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
