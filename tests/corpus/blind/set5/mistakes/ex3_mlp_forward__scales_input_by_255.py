# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: mlp_forward divides the input by 255 before the first layer (an MNIST pixel-normalisation habit), so every output differs from the plain MLP on the same x.
# SHOULD-SAY: ex3 mlp_forward fails the agreement check: it rescales the input by 1/255 inside the forward pass; the function must apply the layers to x as given (normalise data outside the model). Depth, order and ReLU placement are right.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    x = x / 255.0  # pixels to [0, 1]
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
