# BLIND-SET: 25
# EXERCISE: ex3
# WHAT: the loop decides whether a layer is the last one by comparing its name with f"layer{len(params) - 1}", one too low. The penultimate layer loses its ReLU and the output layer gets one (at depth 1 no name matches, so the single layer is ReLU'd); outputs differ at every depth.
# SHOULD-SAY: The layers are numbered from 1, so the last one is f"layer{len(params)}", not len(params) - 1: the off-by-one moves the "no ReLU" exception from the output layer onto the one before it. Compare with len(params), or apply ReLU to names[:-1] and treat names[-1] as the output layer.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    last_name = f"layer{len(params) - 1}"
    for name in names:
        x = x @ params[name]["w"] + params[name]["b"]
        if name != last_name:
            x = jax.nn.relu(x)
    return x
