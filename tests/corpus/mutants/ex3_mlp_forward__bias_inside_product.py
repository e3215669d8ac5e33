"""Misplaced parentheses: each layer computes x @ (w + b), so the bias joins every row of w and is scaled by
the sum of x's entries. One layer returns 0 at x = 0 and w[i] + b on each unit vector: measured, not a missing
bias (whose unit vectors would give w[i]).
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "not x @ (w + b)", "max_failing": 2,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for j, name in enumerate(names):
        x = x @ (params[name]["w"] + params[name]["b"])
        if j < len(names) - 1:
            x = jax.nn.relu(x)
    return x
