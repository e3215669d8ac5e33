# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Misplaced parentheses: each layer computes x @ (w + b), which broadcasts the bias onto every row of w and gives x @ w + sum(x) * b instead of x @ w + b.
# SHOULD-SAY: ex3: wrong outputs at every depth: the bias is added to the weight matrix before the product (scaled by each row's input sum).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ (params[name]["w"] + params[name]["b"]))
    last = params[names[-1]]
    return x @ (last["w"] + last["b"])
