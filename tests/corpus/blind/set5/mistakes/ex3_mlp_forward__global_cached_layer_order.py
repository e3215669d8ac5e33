# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: the sorted layer names are cached in a module-level list on the first call and reused on every later call, so after the first model any params of a different depth run with the stale layer list (KeyError for shallower models, missing layers for deeper ones).
# SHOULD-SAY: ex3 mlp_forward fails when called on models of different depths: the layer order is cached in a global on the first call instead of being read from each params pytree; compute it from params on every call. It is right for the first model it sees.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax

# Sorting the names on every call is wasted work: remember the order once.
_LAYER_ORDER = []


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    if not _LAYER_ORDER:
        _LAYER_ORDER.extend(sorted(params, key=lambda name: int(name.removeprefix("layer"))))
    names = _LAYER_ORDER
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
