# BLIND-SET: 48
# EXERCISE: ex3
# WHAT: Correct. Layer names come from jax.tree.structure(params).node_data() (string-sorted keys) and are re-sorted with sorted(..., key=len), which is stable, so layer1..layer9 stay in order ahead of layer10, layer11, ...: numeric order for any N. Each layer is jnp.vecmat(h, w) + b with jax.nn.relu on all but the last; params is only read.
# SHOULD-SAY: Nothing to fix: mlp_forward meets the contract (full marks for ex3).
"""Exercise 3: a generic MLP that reads its depth from the params treedef."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    _, names = jax.tree.structure(params).node_data()
    # node_data lists the keys as sorted strings; a stable sort by length puts
    # layer1..layer9 before layer10.. without disturbing either group
    names = sorted(names, key=len)
    h = x
    for i, name in enumerate(names, start=1):
        h = jnp.vecmat(h, params[name]["w"]) + params[name]["b"]
        if i < len(names):
            h = jax.nn.relu(h)
    return h
