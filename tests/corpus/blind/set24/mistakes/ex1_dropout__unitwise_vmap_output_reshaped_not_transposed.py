# BLIND-SET: 24
# EXERCISE: ex1
# WHAT: forward_with_dropout applies dropout one hidden unit at a time with jax.vmap(..., in_axes=(0, 1)) over per-unit keys; vmap stacks the mapped axis at position 0 (out_axes defaults to 0), giving (units, batch), and the student "fixes" the shape with .reshape(h.shape) instead of a transpose, which scrambles the activations across examples and units before the next layer; even with train=False the output differs from the plain forward pass (it only coincides for a batch of one).
# SHOULD-SAY: forward_with_dropout(train=False) does not equal the plain forward pass, and in training the logits are wrong: the vmap over hidden units returns the mapped axis first, (units, batch), and reshaping that to (batch, units) shuffles values between examples; use out_axes=1 (or .T), or simply call dropout on the whole (B, units) array with one key per layer.
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


def _dropout_per_unit(key, h, rate, train):
    """Dropout each hidden unit (column of h) with a key of its own."""
    unit_keys = jax.random.split(key, h.shape[1])
    dropped = jax.vmap(lambda k, column: dropout(k, column, rate, train), in_axes=(0, 1))(unit_keys, h)
    return dropped.reshape(h.shape)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = _dropout_per_unit(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = _dropout_per_unit(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
