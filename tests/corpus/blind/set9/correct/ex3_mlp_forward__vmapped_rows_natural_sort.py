# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Orders layers with a general natural-sort key (re.split on digit runs) and writes the forward pass for one example (vector @ matrix), vmapped over the batch rows.
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP, one example at a time under jax.vmap."""

import re

import jax


def _natural_key(name):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def mlp_forward(params, x):
    layers = [params[name] for name in sorted(params, key=_natural_key)]

    def one_example(v):
        for i, layer in enumerate(layers):
            v = v @ layer["w"] + layer["b"]
            if i < len(layers) - 1:
                v = jax.nn.relu(v)
        return v

    return jax.vmap(one_example)(x)
