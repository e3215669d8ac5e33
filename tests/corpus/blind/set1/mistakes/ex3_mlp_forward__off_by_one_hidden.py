# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: My hidden-layer loop used range(1, n-1), which skips the last hidden layer.
# SHOULD-SAY: a layer is skipped (off-by-one in the layer loop)
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    n = len(params)
    names = [f"layer{i}" for i in range(1, n + 1)]
    for name in [f"layer{i}" for i in range(1, n - 1)]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
