# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: the numeric layer indices are read from the names, a list of stages is built (an affine closure per layer, each followed by jax.nn.relu), the trailing ReLU is popped off, and x is pushed through the stages in order.
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP built as a pipeline of closures."""

import jax


def _affine(layer):
    w, b = layer["w"], layer["b"]
    return lambda h: h @ w + b


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth, layers in numeric order."""
    indices = sorted(int(name.removeprefix("layer")) for name in params)
    stages = []
    for i in indices:
        stages.append(_affine(params[f"layer{i}"]))
        stages.append(jax.nn.relu)
    stages.pop()  # no activation after the output layer
    for stage in stages:
        x = stage(x)
    return x
