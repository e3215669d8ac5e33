# BLIND-SET: 47
# EXERCISE: ex3
# WHAT: The bias is added on the flattened (B*d,) activations with jnp.repeat(b, B) instead of jnp.tile(b, B), so flat element r*d + c gets b[(r*d + c) // B] instead of b[c]: each row receives the wrong bias entries (a run of repeated values) at every layer. With B = 1 the two coincide and the output is right; for any B > 1 with a non-constant bias the outputs differ.
# SHOULD-SAY: The bias is broadcast with the wrong stride: row r, column c receives b[(r*d + c) // B] rather than b[c], so outputs are wrong for batches larger than one. jnp.repeat repeats each element B times; to lay the vector out once per row use jnp.tile(b, B), or just write h @ w + b and let broadcasting do it.
import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------

_PREFIX_LEN = 5  # len("layer")


def _dense(h, w, b):
    z = h @ w  # (rows, d_out), row-major: element (r, c) at flat offset r*d_out + c
    rows, d_out = z.shape
    bias_flat = jnp.repeat(b, rows)  # one copy of the bias per row
    flat = z.reshape(rows * d_out) + bias_flat
    return flat.reshape(rows, d_out)


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth (layer1..layerN in numeric order).

    ReLU after every layer except the last. ``params`` is not modified.
    """
    numbered = [(int(name[_PREFIX_LEN:]), name) for name in params]
    numbered.sort()
    n_layers = len(numbered)
    h = x
    for i in range(n_layers - 1):  # hidden: indices 0 .. N-2
        p = params[numbered[i][1]]
        h = jnp.maximum(_dense(h, p["w"], p["b"]), 0.0)
    p = params[numbered[n_layers - 1][1]]
    return _dense(h, p["w"], p["b"])
