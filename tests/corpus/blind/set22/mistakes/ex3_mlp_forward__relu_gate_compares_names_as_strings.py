# BLIND-SET: 22
# EXERCISE: ex3
# WHAT: the layers are applied in the right numeric order, but the ReLU is gated by the string comparison name < names[-1]; with 10 or more layers "layer2".."layer9" compare greater than "layer10"/"layer12", so those hidden layers get no ReLU (depths up to 9 are right).
# SHOULD-SAY: numeric layer order, depth from the params and no ReLU on the output are right, and depths 1-9 agree with the reference, but with 10 or more layers hidden layers layer2..layer9 lose their ReLU: the test name < names[-1] compares layer names as strings, and "layer2" > "layer12" in string order. Decide by position (ReLU for every layer in names[:-1]) or compare the layer numbers as ints.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names:
        x = x @ params[name]["w"] + params[name]["b"]
        if name < names[-1]:  # every layer before the last one
            x = jax.nn.relu(x)
    return x
