# BLIND-SET: 27
# EXERCISE: ex3
# WHAT: The depth is taken as len(params["layer1"]), which is the number of entries in one layer's dict ("w" and "b"), so it is always 2. Depth 2 is right; depth 1 raises KeyError('layer2'); depths 3, 5 and 12 run only layer1 and layer2 (layer2 treated as the output layer, no ReLU) and ignore the rest, returning wrong (B, d2) outputs (wrong values even when the widths are equal).
# SHOULD-SAY: params["layer1"] is one layer ({"w", "b"}), so its length is 2 whatever the network. The number of layers is the number of top-level entries, len(params) (or derive the names from params and sort them numerically).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    depth = len(params["layer1"])
    names = [f"layer{i}" for i in range(1, depth + 1)]
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
