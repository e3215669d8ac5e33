# BLIND-SET: 14
# EXERCISE: ex3
# WHAT: The hidden activation is jax.nn.softplus (a 'smooth ReLU') instead of jax.nn.relu.
# SHOULD-SAY: Layer order, depth detection, bias handling and the linear output layer are right, and depth 1 (no hidden layer) matches, but for depth >= 2 every hidden layer uses softplus(z) = log(1 + e^z) instead of ReLU max(z, 0), so outputs differ from the reference; use jax.nn.relu after every layer but the last.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        # softplus: a smooth ReLU that avoids dead units.
        x = jax.nn.softplus(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
