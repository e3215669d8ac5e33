"""Unpacks each layer with w, b = jax.tree.leaves(layer), but leaves come in sorted key order [b, w].

The matmul with the bias raises on every input. The 12 equal-width layers show
which (h @ b gives one number per example), so ex3.depths names it; ex3.deep is
not judged, and the checks gated on ex3.depths (output_linear, jit,
params_unchanged) are skipped with no points: nothing about a function that
never returns can be judged.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.leaf_order", "max_failing": 1, "hint": "[b, w]",
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name[5:]))
    for i, name in enumerate(names):
        w, b = jax.tree.leaves(params[name])
        x = x @ w + b
        if i < len(names) - 1:
            x = jax.nn.relu(x)
    return x
