# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: hidden activation is written as (h > 0).astype(h.dtype), the ReLU's derivative (a Heaviside step), instead of h * (h > 0).
# SHOULD-SAY: ex3 agreement and ReLU checks fail for depth >= 2: hidden activations are 0/1 steps rather than ReLU; depth 1 still passes.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        h = x @ params[name]["w"] + params[name]["b"]
        x = (h > 0).astype(h.dtype)  # ReLU: keep the positive part
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
