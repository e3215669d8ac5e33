"""The layer number is read as the two characters after "layer", int(name[5:7]): right up to layer99, but
layer100 to layer109 sort as 10, beside layer10, so a network of more than 99 layers runs out of order.
"""

import jax

EXPECT = {"check": "ex3.deep", "mistake": "ex3.layer_order", "hint": "the whole number in them", "max_failing": 1}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name[5:7]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
