"""jax.nn.sigmoid between the layers where the exercise asks for ReLU.

Depth 1 has no hidden activation, so it still agrees; the 12-layer check is
about the layer order, which is right, so it passes with the mistake charged
once, in ex3.depths.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.sigmoid_for_relu", "hint": "sigmoid", "max_failing": 1}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.sigmoid(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
