# BLIND-SET: 29
# EXERCISE: ex1
# WHAT: Correct rewrite: dropout is a lax.scan over the rows of a 2-D view of x, each row with its own key from jax.random.split(key, n_rows) and a uniform coin per element (u < keep), survivors divided by keep; the MLP loops over the two hidden layers with jnp.einsum and keys from one split(key, 2).
# SHOULD-SAY: Nothing to fix: zero fraction rate, survivors scaled by 1/(1-rate), identity for train=False or rate=0, one key per layer, same results under jit.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # 2-D view of x: one row per example, the other axes flattened
    rows = x.reshape(x.shape[0], -1) if x.ndim > 0 else x.reshape(1, 1)
    row_keys = jax.random.split(key, rows.shape[0])  # one key per row

    def body(carry, key_and_row):
        k, r = key_and_row
        u = jax.random.uniform(k, r.shape)  # one coin per element of the row
        return carry, jnp.where(u < keep, r / keep, jnp.zeros_like(r))

    _, out = jax.lax.scan(body, None, (row_keys, rows))
    return out.reshape(x.shape).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 2)  # keys[l] for hidden layer l + 1
    h = x
    for l in range(2):
        layer = params[f"layer{l + 1}"]
        h = jax.nn.relu(jnp.einsum("bi,io->bo", h, layer["w"]) + layer["b"])
        h = dropout(keys[l], h, rate, train)
    out = params["layer3"]
    return jnp.einsum("bi,io->bo", h, out["w"]) + out["b"]
