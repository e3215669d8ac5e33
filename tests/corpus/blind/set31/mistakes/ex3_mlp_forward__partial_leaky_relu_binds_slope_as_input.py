# BLIND-SET: 31
# EXERCISE: ex3
# WHAT: the hidden activation is `functools.partial(jax.nn.leaky_relu, 0.0)`, meant as "leaky ReLU with slope 0"; partial binds 0.0 as the input x and the activation as the slope, so every hidden activation is 0 and the output is the last layer's bias broadcast over the batch. Right at depth 1 (no hidden layer), wrong at every depth >= 2.
# SHOULD-SAY: Every hidden activation is zero: `functools.partial(jax.nn.leaky_relu, 0.0)` fills leaky_relu's first parameter, the input, not negative_slope, so it computes leaky_relu(0.0, negative_slope=h) = 0. Bind by keyword (`functools.partial(jax.nn.leaky_relu, negative_slope=0.0)`) or just use `jax.nn.relu`.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import functools

import jax

relu = functools.partial(jax.nn.leaky_relu, 0.0)


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
