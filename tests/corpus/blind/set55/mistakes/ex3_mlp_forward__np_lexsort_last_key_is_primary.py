# BLIND-SET: 55
# EXERCISE: ex3
# WHAT: the layer order comes from np.lexsort((numbers, names)) meant as "by number, then by name", but lexsort sorts by the LAST key first, so the names (as strings) decide: with 10 or more layers the order is layer1, layer10, layer11, layer12, layer2, ..., and the output is wrong (or a shape error with unequal widths); up to 9 layers it is right.
# SHOULD-SAY: np.lexsort uses the last key as the primary key, so your layers are sorted as strings and layer10 runs right after layer1; pass the numbers last (np.lexsort((names, numbers))) or simply sorted(params, key=lambda n: int(n[len("layer"):])).
"""Exercise 3: MLP of any depth; order from the params keys (NumPy recipe)."""

import jax
import jax.numpy as jnp
import numpy as np


def mlp_forward(params, x):
    names = np.array(list(params.keys()))
    numbers = np.array([int(n.replace("layer", "")) for n in names])
    # sort by layer number, break ties by name
    order = np.lexsort((numbers, names))
    ordered = [str(names[i]) for i in order]
    h = x
    for i, name in enumerate(ordered):
        h = jnp.dot(h, params[name]["w"]) + params[name]["b"]
        if i < len(ordered) - 1:
            h = jax.nn.relu(h)
    return h
