# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: names are 'naturally' sorted with a key that turns each digit character into an int separately, so layer10 ([...,1,0]) sorts before layer9 ([...,9]).
# SHOULD-SAY: ex3: with 10 or more layers the order is wrong (layer10..layer12 come right after layer1), so deep MLPs disagree with the reference; depths up to 9 pass.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: [int(c) if c.isdigit() else c for c in name])
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
