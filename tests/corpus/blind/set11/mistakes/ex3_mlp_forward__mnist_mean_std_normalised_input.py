# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: mlp_forward normalises its input with the PyTorch MNIST tutorial constants (x - 0.1307) / 0.3081 before the first layer.
# SHOULD-SAY: ex3: outputs disagree with the reference at every depth because the input is standardised inside the forward pass; layer order and ReLU placement are right.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    x = (x - 0.1307) / 0.3081  # MNIST normalisation
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
