# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Sorts layer names with functools.cmp_to_key comparing their numeric suffixes (via str.partition), pushes them on a stack in reverse and pops; ReLU is written z * (z > 0).
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP with a comparator sort and a stack of layers."""

import functools

import jax


def _number(name):
    return int(name.partition("layer")[2])


def _compare(a, b):
    return (_number(a) > _number(b)) - (_number(a) < _number(b))


def mlp_forward(params, x):
    stack = sorted(params, key=functools.cmp_to_key(_compare))[::-1]
    while stack:
        layer = params[stack.pop()]
        z = x @ layer["w"] + layer["b"]
        x = z if not stack else z * (z > 0)
    return x
