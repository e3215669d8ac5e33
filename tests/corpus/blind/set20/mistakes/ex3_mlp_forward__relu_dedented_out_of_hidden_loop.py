# BLIND-SET: 20
# EXERCISE: ex3
# WHAT: the ReLU line is dedented out of the hidden-layer loop, so the hidden layers are chained linearly and one ReLU is applied once, just before the output layer (right only at depth 2; at depth 1 it ReLUs the input, at depth >= 3 the hidden layers lose their ReLUs)
# SHOULD-SAY: layer order (numeric sort), depth from params, biases and the linear output layer are right, but ReLU is applied only once, after the last hidden layer, because it is dedented out of the loop: with 3 or more layers the hidden layers collapse into one linear map; at depth 1 it even applies ReLU to the input; indent the ReLU so every hidden layer's output goes through jax.nn.relu inside the loop

"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = x @ params[name]["w"] + params[name]["b"]
    x = jax.nn.relu(x)
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
