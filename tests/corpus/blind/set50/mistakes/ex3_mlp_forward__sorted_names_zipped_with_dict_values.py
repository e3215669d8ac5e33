# BLIND-SET: 50
# EXERCISE: ex3
# WHAT: The names are sorted numerically, but the layers are taken from params.values() and zipped with the sorted names, so the arrays come in the dict's insertion order while only the ReLU decision follows the sorted names. Called directly on a dict that lists its layers in numeric order (as the lesson builds it), the output is right at every depth; when it lists them in any other order (allowed), the layers are applied in that order: a shape error for unequal widths, wrong values for equal widths. The same happens under jax.jit for in-order dicts of 10 or more layers, because jit rebuilds the dict with its keys in string order (layer1, layer10, layer11, ..., layer2).
# SHOULD-SAY: The layers are applied in the dict's insertion order, not in numeric order: the sorted names are zipped with params.values(), which is not sorted. Look each layer up by its name (for name in names: layer = params[name]) so that the arrays follow the numeric order too.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int(name[len("layer"):])


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth: layer1..layerN in numeric order."""
    names = sorted(params, key=_layer_number)
    last_name = names[-1]
    h = x
    for name, layer in zip(names, params.values()):
        h = h @ layer["w"] + layer["b"]
        if name != last_name:
            h = jax.nn.relu(h)
    return h
