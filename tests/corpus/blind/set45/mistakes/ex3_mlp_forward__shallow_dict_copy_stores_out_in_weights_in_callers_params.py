# BLIND-SET: 45
# EXERCISE: ex3
# WHAT: mlp_forward "copies" params with dict(params) (expecting R's copy-on-modify) and then stores each weight transposed to (out, in) in the copy; the copy is shallow, so the caller's layer dicts get their "w" replaced by the transpose. The first call returns the right values but leaves params modified; a second call on the same params transposes back and then fails (unequal widths) or silently computes with W instead of W.T (equal widths).
# SHOULD-SAY: mlp_forward modifies the params you pass in: dict(params) copies only the outer dict, so writing P[name]["w"] = ... changes the caller's layer dicts (Python has no copy-on-modify like R). Don't write into params at all: read W = params[name]["w"] into a local variable and use W.T @ H (or h @ W) there.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def layer_number(name):
    """'layer12' -> 12 (as.integer(sub("layer", "", name)))."""
    return int(name.replace("layer", ""))


def mlp_forward(params, x):
    """Column-vector MLP: H = relu(W * H + b), examples stored as columns."""
    P = dict(params)  # my own copy (p <- params), so I can reorganise it
    names = sorted(P, key=layer_number)
    L = len(names)

    # MATLAB layout: W is (out, in), b is a column
    for name in names:
        P[name]["w"] = P[name]["w"].T

    H = x.T  # (d0, B): one example per column
    for l in range(1, L):  # hidden layers 1..L-1
        W = P[names[l - 1]]["w"]
        b = P[names[l - 1]]["b"]
        H = jax.nn.relu(W @ H + b[:, None])
    W = P[names[L - 1]]["w"]
    b = P[names[L - 1]]["b"]
    return (W @ H + b[:, None]).T
