# BLIND-SET: 40
# EXERCISE: ex3
# WHAT: Each layer is computed as torch.addmm(bias.repeat(B, 1), x, W.t()), with torch's Tensor.repeat (which tiles) ported as jnp.repeat(b, B).reshape(B, -1), which repeats each element B times in a row before reshaping. The bias matrix is scrambled: row r gets the elements of b at (r*out + j) // B instead of b[j]. The output is right only when B == 1 (or every bias is constant); for any batch of two or more rows every layer adds the wrong bias.
# SHOULD-SAY: The outputs are wrong for batches larger than one because the bias matrix is built with jnp.repeat, which repeats elements, not rows as torch's .repeat(B, 1) does. Just add b: broadcasting adds it to every row (or use jnp.tile(b, (B, 1))).
"""Exercise 3: a generic MLP that reads its depth from the params pytree (torch-style)."""

import re

import jax
import jax.numpy as jnp


def addmm(bias_matrix, x, weight_t):
    """torch.addmm(input, mat1, mat2) = input + mat1 @ mat2"""
    return bias_matrix + x @ weight_t


def linear(x, w, b):
    """nn.Linear written as torch.addmm(bias.repeat(B, 1), x, W.t())."""
    B = x.shape[0]
    weight = w.T  # torch layout (out_features, in_features)
    bias_matrix = jnp.repeat(b, B).reshape(B, -1)  # b.repeat(B, 1)
    return addmm(bias_matrix, x, weight.T)


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = sorted(params, key=lambda n: int(re.search(r"\d+", n).group()))
    for name in names[:-1]:
        x = jax.nn.relu(linear(x, params[name]["w"], params[name]["b"]))
    return linear(x, params[names[-1]]["w"], params[names[-1]]["b"])
