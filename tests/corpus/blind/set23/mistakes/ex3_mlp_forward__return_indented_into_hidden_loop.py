# BLIND-SET: 23
# EXERCISE: ex3
# WHAT: the last-layer lines are indented into the hidden-layer loop, so the function returns during the first iteration: depth 2 is right, depth 1 returns None (the loop never runs), depth >= 3 applies layer1 then the output layer and skips layers 2..N-1 (shape error with unequal widths, wrong values with equal widths)
# SHOULD-SAY: Only depth 2 is correct. The output-layer lines sit inside the for loop, so the function returns after the first hidden layer: with one layer it returns None, and with three or more it skips every hidden layer after layer1 (a shape mismatch when widths differ, silently wrong logits when they are equal). Dedent the last two lines out of the loop.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        last = params[names[-1]]
        return x @ last["w"] + last["b"]
