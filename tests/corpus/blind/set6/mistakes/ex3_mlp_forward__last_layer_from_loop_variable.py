# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: After the hidden-layer loop the output layer is taken as params[name], the leftover loop variable (layer N-1), instead of params[names[-1]]: layer N-1 is applied twice and layer N never; NameError for a single layer.
# SHOULD-SAY: ex3 agreement fails at every depth: N=1 raises NameError, unequal widths raise a shape mismatch, equal widths give wrong values; the last layer used is the loop variable `name` (second to last layer), not names[-1].
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[name]
    return x @ last["w"] + last["b"]
