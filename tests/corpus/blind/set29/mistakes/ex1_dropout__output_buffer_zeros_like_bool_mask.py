# BLIND-SET: 29
# EXERCISE: ex1
# WHAT: the output buffer is preallocated with jnp.zeros_like(mask), where mask is the boolean keep mask, and then filled with .at[...].set(...); the buffer is bool, so in training mode dropout returns a bool array (True for every survivor, False for dropped or zero elements) instead of float32 x/(1-rate), and the MLP's logits are wrong.
# SHOULD-SAY: zeros_like copies the dtype of its argument: a buffer made from the bool mask stores True/False, and the scaled values are cast to bool on assignment (JAX warns about the unsafe cast). Allocate the buffer like x (jnp.zeros_like(x)), or skip the buffer and return jnp.where(mask, x / keep, 0.0).astype(x.dtype).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    out = jnp.zeros_like(mask)  # output buffer, same shape as x
    # masked assignment, out[mask] = x[mask] / keep, written so that it also works under jit
    out = out.at[...].set(jnp.where(mask, x / keep, out))
    return out


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
