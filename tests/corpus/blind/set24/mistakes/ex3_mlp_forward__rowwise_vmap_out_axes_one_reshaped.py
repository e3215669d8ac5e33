# BLIND-SET: 24
# EXERCISE: ex3
# WHAT: the forward pass is written for one example and vmapped over the rows of x with out_axes=1 ("batch in the columns, like the column-vector maths"), which returns (dN, B); the student then reshapes that to (B, dN) instead of transposing, so the values are scrambled across examples and output units whenever B > 1 and dN > 1 (shape right, numbers wrong).
# SHOULD-SAY: The outputs do not match a reference MLP although the shape is right: with out_axes=1 vmap puts the batch on axis 1, giving (dN, B), and reshape(B, dN) reinterprets that memory rather than swapping axes, mixing examples together. Keep the default out_axes=0 (the result is already (B, dN)) or transpose; do not use reshape to swap axes.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def _forward_one(params, names, row):
    """One example through the layers in `names`."""
    for name in names[:-1]:
        row = jax.nn.relu(row @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return row @ last["w"] + last["b"]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    out = jax.vmap(lambda row: _forward_one(params, names, row), in_axes=0, out_axes=1)(x)
    return out.reshape(x.shape[0], -1)
