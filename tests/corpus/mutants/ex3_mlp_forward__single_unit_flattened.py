"""mlp_forward turns a hidden layer of one unit into a vector of shape (B,) (a scalar per example), so the next
layer's (1, n) weights no longer fit.
"""

import jax

EXPECT = {'check': 'ex3.depths', 'mistake': 'ex3.unit_wide_layer', 'hint': 'one unit wide', 'max_failing': 1}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        if x.shape[-1] == 1:  # one unit: a scalar per example
            x = x[:, 0]
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
