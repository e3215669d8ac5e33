# BLIND-SET: 20
# EXERCISE: ex3
# WHAT: walks the sorted layer names pairwise with zip(names, names[1:]) and takes the output layer from the loop variable `nxt`, which is never bound when there is a single layer, so depth 1 raises UnboundLocalError (depth >= 2 is correct)
# SHOULD-SAY: numeric layer order, ReLU placement and the output layer are right for two or more layers, but a one-layer params dict crashes: zip(names, names[1:]) is empty, so `nxt` is never assigned before params[nxt] is read; take the output layer from names[-1] rather than from the loop variable so N = 1 works too

"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name, nxt in zip(names, names[1:]):
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[nxt]
    return x @ last["w"] + last["b"]
