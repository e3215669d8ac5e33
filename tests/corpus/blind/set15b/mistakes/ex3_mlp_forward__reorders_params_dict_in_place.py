# BLIND-SET: 15
# EXERCISE: ex3
# WHAT: mlp_forward "tidies" the caller's params dict into numeric layer order in place (params[name] = params.pop(name) for each sorted name) and then iterates the dict directly; the output is right but the caller's dict is mutated.
# SHOULD-SAY: The outputs are right at every depth and width (numeric order, ReLU on all but the last layer), but mlp_forward modifies its argument: popping and re-inserting every key reorders the caller's params dict (list(params) changes whenever the layers were not already in numeric order), which the exercise forbids. Sort the names into a local list (names = sorted(params, key=...)) and index params with it, leaving the dict alone.
"""Exercise 3: an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    # put the layers in numeric order once, then the dict can be walked directly
    for name in sorted(params, key=lambda name: int(name.removeprefix("layer"))):
        params[name] = params.pop(name)
    *hidden, last = params.values()
    for layer in hidden:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ last["w"] + last["b"]
