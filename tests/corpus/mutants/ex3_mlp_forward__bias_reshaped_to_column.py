"""mlp_forward reshapes every bias to a column, b.reshape(-1, 1), "to broadcast over the batch": it meets the
(B, out) rows the wrong way and raises.
"""


import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.bias_column", "hint": "reshaped to a column", "max_failing": 5, "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"].reshape(-1, 1))
    last = params[names[-1]]
    return x @ last["w"] + last["b"].reshape(-1, 1)
