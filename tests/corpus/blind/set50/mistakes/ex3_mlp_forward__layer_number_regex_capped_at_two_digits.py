# BLIND-SET: 50
# EXERCISE: ex3
# WHAT: The layer number is read with re.search(r"\d{1,2}$", name), which keeps only the last two digits. Depths up to 99 (including layer10 after layer9) are ordered correctly, but from 100 layers on layer100..layerN sort as 0..N-100, before layer1, so they are applied first: a shape error with unequal widths, wrong values with equal widths.
# SHOULD-SAY: For networks of 100 layers or more the order is wrong: the regex \d{1,2}$ reads "layer105" as 5. Parse the whole number after "layer" (int(name[len("layer"):]) or re.fullmatch(r"layer(\d+)", name)) so that any depth sorts numerically.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import re

import jax
import jax.numpy as jnp

_NUMBER = re.compile(r"\d{1,2}$")


def _position(name):
    """layer1 -> 1, layer10 -> 10 (numeric, so layer10 comes after layer9)."""
    return int(_NUMBER.search(name).group())


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth: layer1..layerN in numeric order."""
    order = sorted(params, key=_position)
    h = x
    for i, name in enumerate(order):
        h = h @ params[name]["w"] + params[name]["b"]
        if i < len(order) - 1:
            h = jax.nn.relu(h)
    return h
