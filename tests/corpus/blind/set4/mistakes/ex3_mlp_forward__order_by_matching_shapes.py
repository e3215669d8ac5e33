# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: The layer order is worked out by chaining layers whose input width matches the current activations, which is ambiguous when layers have equal widths.
# SHOULD-SAY: layers applied in the wrong order when widths are equal: order must come from the layer names (layer1..layerN), not from matching shapes
"""Exercise 3: an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers chained by matching widths."""
    remaining = dict(params)
    while remaining:
        # the next layer is the one whose input width matches the activations
        name = next(n for n, layer in remaining.items() if layer["w"].shape[0] == x.shape[-1])
        layer = remaining.pop(name)
        x = x @ layer["w"] + layer["b"]
        if remaining:
            x = jax.nn.relu(x)
    return x
