# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: every hidden activation is multiplied by 0.5, the eval-time scaling of classic (non-inverted) dropout with keep_prob 0.5, left in the inference forward pass.
# SHOULD-SAY: ex3 agreement check fails for depth >= 2 (every hidden activation is halved, so outputs differ); depth 1 passes; ReLU placement and layer order are right.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        # dropout (keep_prob 0.5) at inference: scale by the keep probability
        x = 0.5 * jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
