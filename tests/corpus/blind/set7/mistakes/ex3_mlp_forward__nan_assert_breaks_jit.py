# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: a debugging guard 'assert not jnp.isnan(x).any()' after every hidden layer. Eagerly it works and the values are right, but under jax.jit the assert converts a traced boolean to a Python bool and raises TracerBoolConversionError, so the function cannot be jitted.
# SHOULD-SAY: eager agreement passes, the jit check errors (TracerBoolConversionError from a Python assert on array values); the report should say value-dependent Python control flow is not allowed under jit (use jax.debug / checkify or drop the assert).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        assert not jnp.isnan(x).any(), f"NaN after {name}"
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
