# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Copy-paste slip: every hidden layer adds params['layer1']['b'] instead of its own bias. Right for depth 1 and 2; for 3+ layers it is a shape error with unequal widths and wrong values with equal widths.
# SHOULD-SAY: ex3 fails at depth >= 3 (wrong bias used in hidden layers: shape error or wrong outputs); depths 1 and 2 pass.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params["layer1"]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
