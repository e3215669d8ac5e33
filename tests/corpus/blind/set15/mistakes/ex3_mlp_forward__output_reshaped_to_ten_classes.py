# BLIND-SET: 15
# EXERCISE: ex3
# WHAT: mlp_forward reshapes the final output to (-1, 10), assuming the network always ends in the lesson's 10 classes, so any params whose last layer is not 10 wide give an error or a scrambled (B * dN / 10, 10) array.
# SHOULD-SAY: The layer ordering (layer10 after layer9), ReLU placement and bias handling are right, and the lesson's 784-...-10 shapes work, but mlp_forward hard-codes the output width: `.reshape(-1, 10)` fails (or silently reshuffles the rows) whenever the last layer's width dN is not 10. Return x @ w + b of the last layer as is, shape (B, dN), and read every width from params.
"""Exercise 3: an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    logits = x @ last["w"] + last["b"]
    return logits.reshape(-1, 10)  # one row of 10 class scores per example
