# BLIND-SET: 33
# EXERCISE: ex3
# WHAT: Layers are re-sorted numerically only when list(params) is not already in sorted() (string) order; a dict whose keys come in string order - e.g. every params dict under jax.jit, whose pytree rebuild orders keys as strings - is used as is, so with 10+ layers layer10 runs after layer1 (wrong values or a shape error under jit; eager is right only for insertion-ordered dicts).
# SHOULD-SAY: The 'already sorted?' shortcut tests string order, which is exactly the wrong order from layer10 on. Always sort by the numeric suffix: names = sorted(params, key=lambda n: int(n.removeprefix('layer'))).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = list(params)
    if names != sorted(names):
        # only re-sort when the dict's own order looks wrong
        names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
