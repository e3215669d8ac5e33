# BLIND-SET: 35
# EXERCISE: ex3
# WHAT: correct rewrite: layers ordered numerically from their names, each layer a lax.dot_general; when the hidden layers after the first all share one square shape they are stacked with jax.tree_util.tree_map and run by lax.scan (the body returns the new activation as the carry), otherwise a Python loop; ReLU (lax.max) after every layer but the last.
# SHOULD-SAY: nothing to fix: full marks.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp
from jax import lax


def _dense(h, layer):
    """h @ w + b written as a dot_general contraction."""
    return lax.dot_general(h, layer["w"], (((1,), (0,)), ((), ()))) + layer["b"]


def _relu(h):
    return lax.max(h, jnp.zeros_like(h))


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    layers = [params[name] for name in names]
    hidden, last = layers[:-1], layers[-1]
    if hidden:
        x = _relu(_dense(x, hidden[0]))
        rest = hidden[1:]
        shape = rest[0]["w"].shape if rest else None
        if rest and shape[0] == shape[1] and all(layer["w"].shape == shape for layer in rest):
            stacked = jax.tree_util.tree_map(lambda *leaves: jnp.stack(leaves), *rest)

            def body(h, layer):
                return _relu(_dense(h, layer)), None

            x, _ = lax.scan(body, x, stacked)
        else:
            for layer in rest:
                x = _relu(_dense(x, layer))
    return _dense(x, last)
