"""ReLU goes after each layer whose bias is not shaped like the output layer's ("the output layer is the one with
the output's shape"): right when every hidden width differs from the output's, no ReLU at all on the 12 layers of
width 16 (nor on the 1-unit measurement network)."""

import jax

EXPECT = {"check": "ex3.deep", "mistake": "ex3.relu_by_width", "hint": "whatever the layers' widths",
          "max_failing": 1}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    out_shape = params[names[-1]]["b"].shape
    for name in names:
        layer = params[name]
        x = x @ layer["w"] + layer["b"]
        if layer["b"].shape != out_shape:
            x = jax.nn.relu(x)
    return x
