# BLIND-SET: 29
# EXERCISE: ex1
# WHAT: dropout is written as a lax.fori_loop over the rows of x with lax.fori_loop(0, n_rows - 1, ...), as if the upper bound were inclusive; the output starts as a copy of x, so the last row (the last example of a batch) is never dropped or rescaled, and a batch of one example comes back unchanged in training mode.
# SHOULD-SAY: The loop stops one row early: lax.fori_loop(lower, upper) excludes upper like range(), so the last row keeps its input values (no zeros, no 1/(1-rate) scaling). Loop over lax.fori_loop(0, n_rows, ...) (or drop the loop and draw one mask of shape x.shape).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # work on a 2-D view: one row per example, every other axis flattened
    rows = x.reshape(x.shape[0], -1) if x.ndim > 0 else x.reshape(1, 1)
    n_rows, n_cols = rows.shape

    def body(i, out):
        # an independent coin for every element of row i, from the key folded with i
        u = jax.random.uniform(jax.random.fold_in(key, i), (n_cols,))
        return out.at[i].set(jnp.where(u < keep, rows[i] / keep, 0.0))

    out = rows.copy()
    out = jax.lax.fori_loop(0, n_rows - 1, body, out)  # rows 0 .. n_rows-1
    return out.reshape(x.shape).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
