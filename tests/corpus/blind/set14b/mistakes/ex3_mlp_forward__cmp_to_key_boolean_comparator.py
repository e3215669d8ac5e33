# BLIND-SET: 14
# EXERCISE: ex3
# WHAT: layers are sorted with functools.cmp_to_key and a JavaScript-style comparator that returns a bool (a > b) instead of a negative/zero/positive number, so sorting never reorders anything and the dict's insertion order is used.
# SHOULD-SAY: ReLU placement, bias and matmul are right, and the answer is right whenever params lists its layers in order, but the layer order is wrong for dicts listed in any other order (and so layer10 is not reliably after layer9): the comparator never returns a negative value, so Python's sort sees no element as smaller and leaves the order as given. Use sorted(params, key=lambda n: int(n[5:])) or make the comparator return a - b.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import functools

import jax
import jax.numpy as jnp


def _compare_layers(a, b):
    return int(a.removeprefix("layer")) > int(b.removeprefix("layer"))


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = sorted(params, key=functools.cmp_to_key(_compare_layers))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
