# BLIND-SET: 39
# EXERCISE: ex3
# WHAT: Correct. The layers are read with jax.tree_util.tree_flatten_with_path(params, is_leaf=<dict with exactly w and b>), sorted by the integer in each path's DictKey, and folded left to right; each layer's activation is jax.lax.cond(is_last, identity, relu) with is_last taken from the position in the sorted list, so layer10 follows layer9, N = 1 has no ReLU, and params is never written to.
# SHOULD-SAY: Nothing to fix: layers run in numeric order for any depth, with ReLU after every layer but the last, and params is left unmodified.
"""Exercise 3: a generic MLP read off the params pytree with key paths."""

import functools

import jax
import jax.numpy as jnp


def _is_layer(node):
    return isinstance(node, dict) and set(node) == {"w", "b"}


def _layer_number(path):
    return int(path[0].key.removeprefix("layer"))


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    flat, _ = jax.tree_util.tree_flatten_with_path(params, is_leaf=_is_layer)
    layers = [layer for _, layer in sorted(flat, key=lambda kv: _layer_number(kv[0]))]
    last = len(layers) - 1

    def step(h, indexed):
        i, layer = indexed
        z = h @ layer["w"] + layer["b"]
        return jax.lax.cond(i == last, lambda v: v, jax.nn.relu, z)

    return functools.reduce(step, enumerate(layers), x)
