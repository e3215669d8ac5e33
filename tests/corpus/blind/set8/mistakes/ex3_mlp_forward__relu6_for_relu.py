# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Hidden layers use jax.nn.relu6 (min(max(z,0),6)) instead of ReLU; outputs agree wherever no hidden pre-activation exceeds 6 and differ once one does.
# SHOULD-SAY: ex3: the hidden activation is ReLU6 (clipped at 6), not ReLU; visible only on inputs/weights large enough to push a hidden unit above 6.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu6(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
