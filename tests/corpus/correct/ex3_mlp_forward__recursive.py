"""A recursive forward pass over the numerically sorted layer names."""

import jax


def _apply(params, names, x):
    layer = params[names[0]]
    z = x @ layer["w"] + layer["b"]
    if len(names) == 1:
        return z
    return _apply(params, names[1:], jax.nn.relu(z))


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.replace("layer", "")))
    return _apply(params, names, x)
