# BLIND-SET: 15
# EXERCISE: ex3
# WHAT: mlp_forward's loop already runs every layer (ReLU on all but the last), and then the code after the loop applies the last layer once more, a leftover from the "hidden layers in the loop, output layer after it" pattern.
# SHOULD-SAY: Ordering (layer10 after layer9) and ReLU placement inside the loop are right, but the output layer is applied twice: the loop covers layer1..layerN and then `x @ last["w"] + last["b"]` runs layerN again. With unequal widths this raises a shape error; when the last layer is square it silently returns wrong logits. Either loop over names[:-1] and apply the last layer after the loop, or loop over all layers and return x directly, not both.
"""Exercise 3: an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for i, name in enumerate(names):
        x = x @ params[name]["w"] + params[name]["b"]
        if i < len(names) - 1:
            x = jax.nn.relu(x)
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
