# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: a ResNet-minded student adds a skip connection (x = x + relu(...)) to every hidden layer whose output width equals its input width. With unequal widths (784-256-128-10) it matches the reference; with equal hidden widths every such layer adds its input, so the output differs.
# SHOULD-SAY: agreement fails for networks with equal widths (e.g. depth 3/5/12 with constant width) while unequal-width nets pass; a good report says the MLP has no residual connections: h = relu(h @ w + b), nothing added.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        h = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        # skip connection where the shapes allow it (helps deep nets)
        x = x + h if h.shape == x.shape else h
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
