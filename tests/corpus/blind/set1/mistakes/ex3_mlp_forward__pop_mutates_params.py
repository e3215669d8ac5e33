# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: I popped the last layer out of params to treat it separately, which modifies the caller's dict.
# SHOULD-SAY: params modified (pop)
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params.pop(names[-1])
    return x @ last["w"] + last["b"]
