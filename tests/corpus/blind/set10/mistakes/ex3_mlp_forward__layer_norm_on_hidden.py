# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: each hidden pre-activation is layer-normalised over its features (no scale/shift, eps 1e-5) before the ReLU, as in a transformer MLP block.
# SHOULD-SAY: ex3 agreement check fails for depth >= 2 (hidden activations are normalised per example); depth 1 passes; not a ReLU-placement problem.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        h = x @ params[name]["w"] + params[name]["b"]
        h = (h - h.mean(axis=-1, keepdims=True)) / jax.numpy.sqrt(h.var(axis=-1, keepdims=True) + 1e-5)
        x = jax.nn.relu(h)
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
