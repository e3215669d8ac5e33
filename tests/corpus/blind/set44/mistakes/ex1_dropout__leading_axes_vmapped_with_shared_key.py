# BLIND-SET: 44
# EXERCISE: ex1
# WHAT: dropout handles inputs with more than two axes by jax.vmap over the leading axis, but the vmapped function closes over the same `key` (it is not split and mapped), so every slice along axis 0 gets the identical mask. 1-D and 2-D inputs (and the whole MLP) are bit-identical to the reference; for a (T, B, D) input, out[t] is zero in the same places for every t.
# SHOULD-SAY: Elements of an N-D input are not dropped independently: the mask repeats along the leading axis because every vmapped slice reuses the one key. Draw the mask for the full x.shape in one call (jax.random.bernoulli(key, keep, x.shape)), or split the key into x.shape[0] keys and map them with in_axes=(0, 0).
"""Exercise 1: inverted dropout with one PRNG key per layer (shape-first version)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _dense(h, layer):
    # h: (..., in), w: (in, out), b: (out,) -> (..., out)
    return jnp.einsum("...i,io->...o", h, layer["w"]) + layer["b"][None, :]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    if x.ndim > 2:
        # (L, ..., D): peel the leading axis off and treat each slice as a (B, D) batch
        return jax.vmap(lambda xs: dropout(key, xs, rate, train))(x)
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)  # (B, D) or (D,)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)  # same shape as x


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)                    # (2, 2) -> two (2,) keys
    h = jax.nn.relu(_dense(x, params["layer1"]))          # (B, 256)
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(_dense(h, params["layer2"]))          # (B, 128)
    h = dropout(key2, h, rate, train)
    return _dense(h, params["layer3"])                    # (B, 10)
