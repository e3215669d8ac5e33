# BLIND-SET: correct
# EXERCISE: ex3
# WHAT: Layer names rebuilt as f'layer{i}' for i in range(1, len(params)+1).
# SHOULD-SAY: full marks
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = [f"layer{i}" for i in range(1, len(params) + 1)]
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
