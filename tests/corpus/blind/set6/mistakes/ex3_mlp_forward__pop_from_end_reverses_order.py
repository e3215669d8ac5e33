# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Layer names are sorted ascending and then consumed with list.pop(), which takes from the end, so the layers run layerN first and layer1 last (ReLU placement by position is otherwise right).
# SHOULD-SAY: ex3 layer-order check fails for N >= 2: layers are applied in reverse order (shape error with unequal widths, wrong values with equal widths); depth 1 passes. Cause: names.pop() pops the highest layer first.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    while names:
        layer = params[names.pop()]
        x = x @ layer["w"] + layer["b"]
        if names:
            x = jax.nn.relu(x)
    return x
