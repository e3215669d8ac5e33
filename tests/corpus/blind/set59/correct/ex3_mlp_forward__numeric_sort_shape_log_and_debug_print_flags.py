# BLIND-SET: 59
# EXERCISE: ex3
# WHAT: correct: the layers are sorted by their number (int of the name after 'layer'). A leaf-count assert, a module log of layer shapes, a timing variable, shape prints behind PRINT_SHAPES = False and jax.debug.print behind DEBUG = False are left in, plus a commented-out wrong alternative. params are only read. The output is bit-identical to the reference's at depths 1/2/3/5/12, with equal and unequal widths, in numeric, reversed, string and shuffled dict order, eagerly and under jit; params are untouched.
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import time

import jax
import jax.numpy as jnp

DEBUG = False
PRINT_SHAPES = False
_shape_log = {}            # depth -> list of (name, w shape), filled on every call
_t_last = [0.0]


def _num(name):
    # "layer12" -> 12; sorted(params) alone would put layer10 after layer1
    return int(name[len("layer"):])


# --- Your code ----------------------------------------------------------------


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth; layers in numeric order."""
    t0 = time.perf_counter()
    names = sorted(params.keys(), key=_num)
    n_leaves = len(jax.tree.leaves(params))
    assert n_leaves == 2 * len(names), f"expected w and b per layer, got {n_leaves} leaves"
    _shape_log[len(names)] = [(n, tuple(params[n]["w"].shape)) for n in names]
    if PRINT_SHAPES:
        for n in names:
            print(n, params[n]["w"].shape, params[n]["b"].shape)
    h = x
    for i, name in enumerate(names):
        layer = params[name]                     # read only, never written to
        h = h @ layer["w"] + layer["b"]
        if i < len(names) - 1:                   # no ReLU on the output layer
            h = jax.nn.relu(h)
        if DEBUG:
            jax.debug.print(name + " -> {s} mean {m}", s=h.shape[-1], m=jnp.mean(h))
    # return jax.nn.relu(h)   # WRONG: the output layer has no ReLU
    _t_last[0] = time.perf_counter() - t0
    return h
