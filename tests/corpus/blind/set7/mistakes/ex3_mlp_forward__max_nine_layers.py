# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: layer names are generated as layer1..layer9 (range(1, 10)) and filtered by membership, assuming 'nobody has 10 layers'. Depth 1-9 is right; with 12 layers layer10..layer12 are silently ignored and layer9 is treated as the output layer (no ReLU), giving wrong output width/values.
# SHOULD-SAY: agreement fails at depth 12 (wrong shape or values, layers 10-12 skipped) while depths 1-5 pass; the report should say depth must come from the params (e.g. len(params) or sorted numeric names), not a fixed upper bound.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = [f"layer{i}" for i in range(1, 10) if f"layer{i}" in params]
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
