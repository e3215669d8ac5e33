# BLIND-SET: 23
# EXERCISE: ex3
# WHAT: bias is indexed as b[0], assuming a (1, out) row; with the contract's (out,) biases this is the scalar first element, so every unit of every layer gets b[0] added instead of its own bias; shapes are right and zero biases hide it
# SHOULD-SAY: Wrong values whenever the biases are not all equal: biases are (out,) vectors, but you index them with b[0] as if they were (1, out) rows, so each layer adds the scalar b[0] to every unit instead of the whole bias vector. Add params[name]['b'] directly; it broadcasts over the batch.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"][0])  # b is a (1, out) row
    last = params[names[-1]]
    return x @ last["w"] + last["b"][0]
