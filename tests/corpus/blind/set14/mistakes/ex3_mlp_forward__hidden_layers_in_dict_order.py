# BLIND-SET: 14
# EXERCISE: ex3
# WHAT: The output layer is found numerically (max layer number) but the hidden layers are applied in the dict's iteration order, so a params dict whose keys are not inserted as layer1, layer2, ... runs the hidden layers out of order.
# SHOULD-SAY: Depth 1 and 2 are always right, and deeper nets are right eagerly when the dict lists its layers in numeric order, but the hidden layers are applied in dict iteration order instead of numeric order: with shuffled keys, with 12 layers listed in string order (layer1, layer10, layer11, layer2, ...), and under jax.jit (which rebuilds the dict with sorted string keys) the hidden layers run out of order, giving wrong logits with equal widths or a shape error with unequal widths; sort all layer names numerically (int(name[5:])) and iterate over that order.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    last_name = max(params, key=lambda name: int(name.removeprefix("layer")))
    for name in params:
        if name == last_name:
            continue
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[last_name]
    return x @ last["w"] + last["b"]
