# BLIND-SET: 13
# EXERCISE: ex3
# WHAT: Hidden layers use jax.nn.silu (swish, the modern-transformer habit) instead of ReLU.
# SHOULD-SAY: Layer ordering (numeric, layer10 after layer9), depth from params, no activation on the output, params untouched and jit are all fine; but the hidden activation is SiLU/swish instead of ReLU, so outputs differ from the reference at every depth N >= 2 (N = 1 is still correct).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.silu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
