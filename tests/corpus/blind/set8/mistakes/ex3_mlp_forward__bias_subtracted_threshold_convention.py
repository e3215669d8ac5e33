# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Every layer computes x @ w - b (the perceptron 'threshold' convention) instead of x @ w + b; identical when all biases are zero, wrong otherwise.
# SHOULD-SAY: ex3: biases are subtracted instead of added; wrong whenever biases are non-zero (invisible with zero-initialised biases).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] - params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] - last["b"]
