# BLIND-SET: 12
# EXERCISE: ex3
# WHAT: The output layer leaves out its bias on the belief that softmax is shift-invariant, which only holds for adding the same constant to every logit.
# SHOULD-SAY: The logits are missing the last layer's bias (a bias vector is not a constant shift, so it is not redundant for softmax); results are off by exactly b_N at every depth. Layer ordering (numeric), hidden-layer biases and ReLUs, no ReLU on the output, jit and params immutability are fine.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"]  # softmax is shift-invariant, so the output bias is redundant
