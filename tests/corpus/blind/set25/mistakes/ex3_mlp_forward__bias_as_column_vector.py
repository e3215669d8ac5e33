# BLIND-SET: 25
# EXERCISE: ex3
# WHAT: each bias is added as a column, b[:, None] with shape (d_out, 1), the column-vector convention of older tutorials that compute W @ x. Against the (B, d_out) product this broadcasts silently only when B == 1 (giving a (d_out, d_out) result) or B == d_out; for other batch sizes it raises a shape error, and even where it fits the values and output shape are wrong.
# SHOULD-SAY: With x stored as rows (B, d_in) and w as (d_in, d_out), the bias is a row that broadcasts over the batch: x @ w + b. Reshaping it to a column makes it broadcast along the wrong axis; drop the [:, None].
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"][:, None])
    last = params[names[-1]]
    return x @ last["w"] + last["b"][:, None]
