# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Each hidden pre-activation is centred over the batch (h - h.mean(axis=0)) before the ReLU, a half-remembered batch-norm; outputs change and each row now depends on the other rows of the batch.
# SHOULD-SAY: ex3 value checks fail for depth >= 2 (hidden activations batch-centred; rows depend on the batch); depth 1 passes.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        h = x @ params[name]["w"] + params[name]["b"]
        x = jax.nn.relu(h - h.mean(axis=0, keepdims=True))
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
