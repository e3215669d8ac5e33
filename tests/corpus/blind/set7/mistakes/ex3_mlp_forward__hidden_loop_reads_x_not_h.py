# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: the hidden-layer loop writes h = relu(x @ w + b) but always reads the input x instead of the previous h, so each hidden layer is applied to the network input and only the last hidden layer's result reaches the output. Depth 1 and 2 are right; depth >= 3 is wrong (shape error with unequal widths, wrong values with equal widths).
# SHOULD-SAY: agreement fails at depths 3, 5 and 12 (error or wrong values) while depths 1-2 pass; the report should say the loop must feed each layer the previous layer's activation (reassign the same variable).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    h = x
    for name in names[:-1]:
        h = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return h @ last["w"] + last["b"]
