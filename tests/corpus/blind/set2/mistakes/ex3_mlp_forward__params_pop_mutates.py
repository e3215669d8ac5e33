# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: I used `params.pop(last_name)` to take the output layer off, which deletes it from the caller's dict.
# SHOULD-SAY: modifies params (pop)
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    last = params.pop(names[-1])
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ last["w"] + last["b"]
