# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Layers are sorted numerically, but the output layer is recognised as max(params), a string comparison: with 10 or more layers that is 'layer9', so a 12-layer net skips the ReLU after layer9 and puts one on the layer12 output.
# SHOULD-SAY: ex3 depth-12 check fails (depths 1, 2, 3, 5 pass): no ReLU after layer9 and a ReLU on the output, because the last layer is found with max() over the names as strings ('layer9' > 'layer12').
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    last = max(params)
    for name in names:
        x = x @ params[name]["w"] + params[name]["b"]
        if name != last:
            x = jax.nn.relu(x)
    return x
