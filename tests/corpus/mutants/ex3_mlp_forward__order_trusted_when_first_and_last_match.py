"""mlp_forward sorts the layer names only when the dict does not already start with layer1 and end with the last
layer: a dict listed with its ends in place and its middle out of order runs in that order. Every graded case is
right (numeric order, or listed backwards); the report measures the 12-layer network listed with only its ends in
place, as run in the dict's order."""

import jax

EXPECT = {"check": "ex3.deep", "mistake": "ex3.order_checked_at_the_ends", "max_failing": 1,
          "hint": "cannot be told by its ends"}


def mlp_forward(params, x):
    """Forward pass through an MLP of any depth."""
    names = list(params)
    n = len(names)
    if names[0] != "layer1" or names[-1] != f"layer{n}":
        names = sorted(names, key=lambda name: int(name[5:]))
    for i, name in enumerate(names):
        x = x @ params[name]["w"] + params[name]["b"]
        if i < n - 1:
            x = jax.nn.relu(x)
    return x
