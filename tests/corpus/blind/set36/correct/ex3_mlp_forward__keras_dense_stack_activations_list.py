# BLIND-SET: 36
# EXERCISE: ex3
# WHAT: Correct rewrite in Keras terms: layer names ordered by the integer in their name, a list of activations ["relu", ..., "relu", "linear"] zipped with them, and a Dense helper that reads kernel/bias into local variables (params is only read).
# SHOULD-SAY: Nothing to fix: any depth, numeric layer order (layer10 after layer9), ReLU after every layer but the last, params untouched.
"""Exercise 3 (Keras-flavoured rewrite): a Dense stack of any depth read off the params pytree."""

import re

import jax
import jax.numpy as jnp

_ACTIVATIONS = {"relu": jax.nn.relu, "linear": lambda t: t}


def _layer_index(name):
    return int(re.search(r"(\d+)$", name).group(1))


def _dense(inputs, layer, activation):
    kernel = layer["w"]
    bias = layer["b"]
    return _ACTIVATIONS[activation](jnp.matmul(inputs, kernel) + bias)


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params.keys(), key=_layer_index)
    activations = ["relu"] * (len(names) - 1) + ["linear"]
    outputs = x
    for name, activation in zip(names, activations):
        outputs = _dense(outputs, params[name], activation)
    return outputs
