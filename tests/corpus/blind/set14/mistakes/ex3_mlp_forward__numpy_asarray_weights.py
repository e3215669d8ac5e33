# BLIND-SET: 14
# EXERCISE: ex3
# WHAT: mlp_forward converts every weight and bias with np.asarray before the loop, which works eagerly but raises a TracerArrayConversionError when params are traced by jax.jit.
# SHOULD-SAY: Eager results are right at every depth and order (numeric layer order, ReLU placement, params untouched), but mlp_forward fails under jax.jit (jax.jit(mlp_forward)(params, x)) because np.asarray cannot convert traced arrays; use the jax arrays directly (or jnp.asarray), never numpy conversion inside code that may be traced.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import numpy as np


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    # Pull the weights to host memory once so the loop works on plain arrays.
    layers = [(np.asarray(params[n]["w"]), np.asarray(params[n]["b"])) for n in names]
    for w, b in layers[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = layers[-1]
    return x @ w + b
