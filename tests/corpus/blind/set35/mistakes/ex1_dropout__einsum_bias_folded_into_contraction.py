# BLIND-SET: 35
# EXERCISE: ex1
# WHAT: forward_with_dropout computes every layer as jnp.einsum("bi,io,o->bo", h, w, b), "fusing" the bias into the einsum; einsum can only multiply, so each pre-activation is (h @ w) * b instead of h @ w + b. Logits are wrong with and without dropout, so train=False no longer equals the plain forward pass.
# SHOULD-SAY: An einsum multiplies all its operands; the bias is not a factor of the contraction. Compute jnp.einsum("bi,io->bo", h, w) and then add b (or use h @ w + b) in every layer.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _dense(h, layer):
    """One affine layer as a single contraction."""
    return jnp.einsum("bi,io,o->bo", h, layer["w"], layer["b"])


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(_dense(x, params["layer1"]))
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(_dense(h, params["layer2"]))
    h = dropout(key2, h, rate, train)
    return _dense(h, params["layer3"])
