# BLIND-SET: 27
# EXERCISE: ex3
# WHAT: The layers are fetched with operator.itemgetter(*names)(params) and unpacked as *hidden, last. For two or more layers itemgetter returns a tuple and everything is right, but for one layer it returns the layer dict itself, so the unpacking splits its keys ("w", "b") and the function raises TypeError at depth 1.
# SHOULD-SAY: itemgetter with a single key returns that one item, not a 1-tuple, so depth 1 breaks. Build the list explicitly, e.g. layers = [params[name] for name in names], then *hidden, last = layers.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

from operator import itemgetter

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    *hidden, last = itemgetter(*names)(params)
    for layer in hidden:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ last["w"] + last["b"]
