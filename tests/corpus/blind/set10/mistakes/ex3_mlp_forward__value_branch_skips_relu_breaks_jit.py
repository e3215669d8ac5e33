# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: mlp_forward only applies the ReLU when a Python `if jnp.any(h < 0)` says some value is negative, a data-dependent branch that cannot be traced.
# SHOULD-SAY: ex3 jit check errors (TracerBoolConversionError / ConcretizationTypeError under jax.jit); eager results are all correct.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        h = x @ params[name]["w"] + params[name]["b"]
        if jnp.any(h < 0):  # skip the ReLU when nothing is negative
            h = jax.nn.relu(h)
        x = h
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
