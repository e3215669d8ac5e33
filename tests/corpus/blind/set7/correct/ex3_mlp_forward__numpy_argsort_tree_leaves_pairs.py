# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: the numeric order is computed with np.argsort over the integers parsed from the names (name.partition("layer")[2]); each layer's (b, w) are unpacked from jax.tree.leaves(params[name]) (leaves come in key order: b before w); ReLU via jax.nn.relu on every layer except the last, selected by slicing the ordered list.
# SHOULD-SAY: full marks
"""Exercise 3: an MLP of any depth, ordered with numpy.argsort."""

import jax
import numpy as np


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = list(params)
    numbers = np.array([int(n.partition("layer")[2]) for n in names])
    ordered = [names[i] for i in np.argsort(numbers)]
    layers = [tuple(jax.tree.leaves(params[n])) for n in ordered]  # (b, w) per layer
    for b, w in layers[:-1]:
        x = jax.nn.relu(x @ w + b)
    b_out, w_out = layers[-1]
    return x @ w_out + b_out
