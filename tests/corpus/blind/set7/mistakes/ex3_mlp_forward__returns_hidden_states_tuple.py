# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: mlp_forward returns (logits, activations) - the list of hidden activations for debugging - instead of just the (B, dN) logits array. The first element is right, but every caller expecting an array gets a tuple.
# SHOULD-SAY: the agreement/shape checks fail (or error) because the return value is a tuple, not a float32 (B, dN) array; fix: return only the output of the last layer.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    activations = []
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        activations.append(x)
    last = params[names[-1]]
    return x @ last["w"] + last["b"], activations
