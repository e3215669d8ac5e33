# BLIND-SET: 52
# EXERCISE: ex3
# WHAT: the natural-order sort key is written (len(kv[1]), kv[0]) over params.items(); kv[1] is the layer's {"w", "b"} dict, whose len is always 2, so the key reduces to the name string and layers are applied in string order (layer1, layer10, layer11, layer12, layer2, ...). Up to 9 layers the output is right; with 10 or more layers it is wrong (wrong logits for equal widths, a shape error for unequal widths).
# SHOULD-SAY: With 10 or more layers, mlp_forward applies them in string order. The sort key measures len(kv[1]), the length of the layer dict (always 2), instead of len(kv[0]), the length of the name. Sort by the layer number: key=lambda kv: int(kv[0].removeprefix("layer")) (or (len(kv[0]), kv[0])).
"""Exercise 3: a generic MLP (items sorted by (length, name))."""

from functools import reduce

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    *hidden, last = [p for _, p in sorted(params.items(), key=lambda kv: (len(kv[1]), kv[0]))]
    h = reduce(lambda h, p: jax.nn.relu(h @ p["w"] + p["b"]), hidden, x)
    return h @ last["w"] + last["b"]
