# BLIND-SET: 45
# EXERCISE: ex3
# WHAT: the network is applied to each row with an R-style sapply whose per-example output vectors are hstack-ed into one long vector and turned into a (dN, B) "one column per example" matrix with a C-order reshape (R's matrix(unlist(.), ncol = B) fills by columns), then transposed; for B > 1 and dN > 1 the output entries are shuffled across examples and classes.
# SHOULD-SAY: Your outputs are shuffled between examples: hstack of the per-example 1-D outputs lays them out example after example, and reshape(-1, B) fills row by row (NumPy is row-major), not column by column like R's matrix(). Stack them with jnp.stack(outs) (shape (B, dN)), or reshape with order="F"; better, run the whole batch at once as h @ W + b.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def sapply(f, X):
    """R's sapply over the rows of X: each result becomes one column."""
    outs = [f(X[i]) for i in range(X.shape[0])]
    return jnp.hstack(outs).reshape(-1, len(outs))  # matrix(unlist(outs), ncol = n)


def mlp_forward(params, x):
    """Apply the MLP to each example (a column vector), then put rows back."""
    names = sorted(params, key=lambda s: int(s[5:]))
    L = len(names)

    def one_example(xi):
        h = xi
        for l in range(L):
            W = params[names[l]]["w"]
            b = params[names[l]]["b"]
            h = W.T @ h + b  # W' * h + b
            if l < L - 1:
                h = jax.nn.relu(h)
        return h

    Y = sapply(one_example, x)  # (dN, B)
    return Y.T
