"""mlp_forward runs each example alone as a (1, d) row (jax.vmap over x[:, None, :]) and returns the stacked
rows without squeezing: shape (B, 1, n_out), every value right.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.extra_axis", "hint": "squeeze", "max_failing": 1,
          "also": ["ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def _one(params, names, row):
    for name in names[:-1]:
        row = jax.nn.relu(row @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return row @ last["w"] + last["b"]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    return jax.vmap(lambda row: _one(params, names, row))(x[:, None, :])
