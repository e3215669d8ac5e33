# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: the layer order is produced by itertools.takewhile over itertools.count(1) while f"layer{i}" is in params (so depth comes from the params and layer10 follows layer9); the affine maps use jnp.matmul/jnp.add and ReLU is x.clip(0) applied to all but the final layer via an index test.
# SHOULD-SAY: full marks
"""Exercise 3: an MLP of any depth, layers discovered with itertools."""

import itertools

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = list(
        itertools.takewhile(lambda n: n in params, (f"layer{i}" for i in itertools.count(1)))
    )
    if len(names) != len(params):
        raise ValueError(f"layers are not numbered layer1..layer{len(params)}: {sorted(params)}")
    h = x
    for i, name in enumerate(names):
        h = jnp.add(jnp.matmul(h, params[name]["w"]), params[name]["b"])
        if i < len(names) - 1:
            h = h.clip(0)
    return h
