# BLIND-SET: 13
# EXERCISE: ex3
# WHAT: The output (last) layer is applied as a bias-free projection x @ w (Keras Dense(use_bias=False) habit); hidden layers keep their biases.
# SHOULD-SAY: Ordering of layers, depth from params, ReLU placement, params unmodified and jit are fine; but the last layer ignores its bias, so outputs are off by params['layerN']['b'] whenever that bias is non-zero (all depths including N = 1).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"]
