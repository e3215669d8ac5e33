# BLIND-SET: 22
# EXERCISE: ex3
# WHAT: mlp_forward decides whether a layer is the output layer by its width (skips ReLU whenever a layer's output width equals the final width dN), so any hidden layer as wide as the output gets no ReLU; right whenever the hidden widths differ from dN.
# SHOULD-SAY: numeric layer order, depth from the params and the matmul+bias are right, and the output has no ReLU, but hidden layers whose width equals the output width also lose their ReLU, because "is this the last layer?" is decided by comparing widths. With equal widths (or any hidden layer of width dN) the result is wrong. Decide by position instead: ReLU for every layer in names[:-1], none for names[-1].
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    out_width = params[names[-1]]["w"].shape[1]
    for name in names:
        x = x @ params[name]["w"] + params[name]["b"]
        if x.shape[-1] != out_width:  # not at the output layer yet
            x = jax.nn.relu(x)
    return x
