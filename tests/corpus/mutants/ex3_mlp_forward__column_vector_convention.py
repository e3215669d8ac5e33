"""mlp_forward writes each layer in the column-vector convention of the textbooks, W x + b, as w.T @ h.T: the
product is (out, B), turned round, and the bias (out,) does not fit along its last axis.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.product_transposed", "hint": "column vectors", "max_failing": 5,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    h = x
    for name in names[:-1]:
        h = jax.nn.relu(params[name]["w"].T @ h.T + params[name]["b"]).T
    last = params[names[-1]]
    return (last["w"].T @ h.T + last["b"]).T
