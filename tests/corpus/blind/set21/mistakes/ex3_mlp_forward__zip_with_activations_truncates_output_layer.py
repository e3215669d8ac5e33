# BLIND-SET: 21
# EXERCISE: ex3
# WHAT: layers are zipped with an nn.Sequential-style list of N-1 ReLU activations; zip stops at the shorter list, so the output layer layerN is never applied and the function returns the ReLU'd hidden activations of layer N-1 (for N=1 it returns x unchanged).
# SHOULD-SAY: the numeric layer ordering, reading depth from params and the hidden layers' ReLUs are right, but the last layer is silently skipped: zip(names, activations) with only N-1 activations drops layerN, so the output is the (ReLU'd) width of layer N-1 instead of the logits of layer N. Give the output layer an identity activation (N activations in total) or apply the last layer after the loop.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    # One activation per layer "but the last", as in nn.Sequential(Linear, ReLU, ..., Linear).
    activations = [jax.nn.relu] * (len(names) - 1)
    for name, activation in zip(names, activations):
        x = activation(x @ params[name]["w"] + params[name]["b"])
    return x
