# BLIND-SET: 50
# EXERCISE: ex3
# WHAT: Correct. mlp_forward matches every name against ^layer([1-9][0-9]*)$, builds an {int: layer} table, asserts the numbers are exactly 1..N, then runs i = 1..N with jnp.dot, adding the bias and applying jnp.where(h > 0, h, 0) only while i < N. Depth 1, depths of 10 and more (also over 100), any dict order, shared layer dicts, B = 1 and odd widths all agree with the reference; params is only read.
# SHOULD-SAY: Nothing to fix: full marks for ex3.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import re

import jax
import jax.numpy as jnp

_LAYER_NAME = re.compile(r"^layer([1-9][0-9]*)$")


def _layers_by_number(params):
    table = {}
    for name, layer in params.items():
        match = _LAYER_NAME.match(name)
        assert match is not None, f"unexpected key {name!r} in params"
        table[int(match.group(1))] = layer
    depth = len(table)
    assert depth >= 1 and sorted(table) == list(range(1, depth + 1)), sorted(table)
    return table, depth


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    table, depth = _layers_by_number(params)
    h = x
    i = 1
    while i <= depth:
        layer = table[i]
        h = jnp.dot(h, layer["w"]) + layer["b"]
        if i < depth:  # hidden layer: ReLU; the output layer stays linear
            h = jnp.where(h > 0, h, jnp.zeros_like(h))
        i += 1
    return h
