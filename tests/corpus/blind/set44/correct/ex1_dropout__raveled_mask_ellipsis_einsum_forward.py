# BLIND-SET: 44
# EXERCISE: ex1
# WHAT: Correct. dropout works on a raveled view, drawing a (x.size,) Bernoulli keep-mask and reshaping the result back to x.shape (the counter-based bits are the same as for a mask drawn at x.shape, so the masks are bit-identical to the reference's). The eval and rate-0 paths return x itself. forward_with_dropout uses jnp.einsum("...i,io->...o") layers with b[None, :] biases and unstacks jax.random.split(key) into one key per hidden dropout.
# SHOULD-SAY: Nothing to fix: dropout zeroes each element independently with probability rate, scales survivors by 1/(1-rate), returns x unchanged for train=False or rate=0, and the MLP gives each hidden dropout its own split key.
"""Exercise 1: inverted dropout with one PRNG key per layer (shape-first version)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    flat = jnp.ravel(x)                                         # (N,), N = x.size
    keep_mask = jax.random.bernoulli(key, keep, flat.shape)     # (N,): one coin per element
    out = jnp.where(keep_mask, flat / keep, jnp.zeros_like(flat))
    return out.reshape(x.shape).astype(x.dtype)                 # back to x.shape


def _dense(h, layer):
    # (..., in) x (in, out) + (1, out) -> (..., out)
    return jnp.einsum("...i,io->...o", h, layer["w"]) + layer["b"][None, :]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key_h1, key_h2 = jnp.unstack(jax.random.split(key, 2), axis=0)   # (2, 2) -> two (2,) keys
    h = jax.nn.relu(_dense(x, params["layer1"]))                      # (B, 256)
    h = dropout(key_h1, h, rate, train)
    h = jax.nn.relu(_dense(h, params["layer2"]))                      # (B, 128)
    h = dropout(key_h2, h, rate, train)
    return _dense(h, params["layer3"])                                # (B, 10), no dropout on logits
