"""Every layer whose input and output widths match adds its input to its output (a residual connection, as in a
ResNet): the networks of unequal widths are right, the equal-width ones are not. The report measures one layer
returning x @ w + b + x.
"""


import jax

EXPECT = {"check": "ex3.deep", "mistake": "ex3.skip_connection", "hint": "residual", "max_failing": 1}



def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = _residual(x, jax.nn.relu(x @ params[name]["w"] + params[name]["b"]))
    last = params[names[-1]]
    return _residual(x, x @ last["w"] + last["b"])


def _residual(x, out):
    return out + x if out.shape == x.shape else out
