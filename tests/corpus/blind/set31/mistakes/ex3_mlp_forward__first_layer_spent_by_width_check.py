# BLIND-SET: 31
# EXERCISE: ex3
# WHAT: mlp_forward takes the layers from a generator in numeric order and checks the input width with `next(layers)["w"].shape[0]`; that `next` consumes layer1, so the loop starts at layer2. Depth 1 raises ValueError (nothing left to unpack); deeper nets skip layer1, giving a shape error when widths differ and wrong values when they are equal.
# SHOULD-SAY: layer1 is never applied: the width check takes it off the `layers` generator with next(), and the star-unpacking `*hidden, last = layers` only sees what is left. Check the width on `params[names[0]]` (or build `layers` as a list) so the iteration starts at layer1.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    layers = (params[name] for name in names)
    if next(layers)["w"].shape[0] != x.shape[-1]:
        raise ValueError("input width does not match layer1")
    *hidden, last = layers
    for layer in hidden:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ last["w"] + last["b"]
