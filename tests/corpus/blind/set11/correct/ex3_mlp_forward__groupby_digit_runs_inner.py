# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: natural sort key built with itertools.groupby over digit runs; layers applied with jnp.inner(x, w.T) and ReLU as jnp.clip(h, 0, None).
# SHOULD-SAY: full marks
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import itertools

import jax
import jax.numpy as jnp


def _natural_key(name):
    return tuple(
        int(''.join(run)) if is_digit else ''.join(run)
        for is_digit, run in itertools.groupby(name, str.isdigit)
    )


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=_natural_key)
    for name in names[:-1]:
        x = jnp.clip(jnp.inner(x, params[name]["w"].T) + params[name]["b"], 0.0, None)
    last = params[names[-1]]
    return jnp.inner(x, last["w"].T) + last["b"]
