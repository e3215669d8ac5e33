# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Written in the course-notes layout with examples as columns (h = W^T h + b[:, None]) and the input transposed in, but the result is never transposed back: the output has shape (dN, B) instead of (B, dN).
# SHOULD-SAY: ex3: output shape is (dN, B), the transpose of the expected (B, dN); values are the transposed reference.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    h = x.T  # examples as columns, as in the notes: h <- W^T h + b
    for name in names[:-1]:
        h = jax.nn.relu(params[name]["w"].T @ h + params[name]["b"][:, None])
    last = params[names[-1]]
    return last["w"].T @ h + last["b"][:, None]
