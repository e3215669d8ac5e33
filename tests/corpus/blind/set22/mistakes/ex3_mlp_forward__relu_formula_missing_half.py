# BLIND-SET: 22
# EXERCISE: ex3
# WHAT: the hidden activation is written by formula as x + |x| instead of (x + |x|) / 2, i.e. 2 * relu(x), so every hidden activation is doubled (no effect at depth 1).
# SHOULD-SAY: layer order (numeric, layer10 after layer9), depth from the params, bias handling and no activation on the output are right, but the hidden activation is 2 * ReLU: x + jnp.abs(x) is missing the division by 2, so every hidden layer's output is twice what it should be and results are wrong at every depth >= 2. Use jax.nn.relu(x) (or (x + jnp.abs(x)) / 2).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def _relu(z):
    # relu(z) = max(z, 0), written branch-free
    return z + jnp.abs(z)


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = _relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
