"""mlp_forward runs the layers in a while loop and returns from inside it when it reaches the last hidden layer,
applying the output layer there; with one layer the loop never runs and the function returns None, and from
three layers on the hidden layers after the first are skipped.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "ended without reaching a return statement", "max_failing": 2, "also": ["ex3.deep"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    i = 0
    while i < len(names) - 1:
        x = jax.nn.relu(x @ params[names[i]]["w"] + params[names[i]]["b"])
        last = params[names[-1]]
        return x @ last["w"] + last["b"]
