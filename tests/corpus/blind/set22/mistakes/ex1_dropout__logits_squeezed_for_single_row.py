# BLIND-SET: 22
# EXERCISE: ex1
# WHAT: forward_with_dropout returns jnp.squeeze(logits), so a batch of one example comes back with shape (10,) instead of (1, 10) (with train=True and train=False alike); batches of two or more are unaffected.
# SHOULD-SAY: dropout and the dropout MLP are right for ordinary batches (keys split per layer, dropout after the hidden ReLUs, train=False equals forward), but the logits must always be (B, 10): the extra jnp.squeeze drops the batch axis when B == 1, so a single-example batch returns shape (10,). Return h @ w3 + b3 without squeezing.
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


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
    return jnp.squeeze(logits)  # tidy up stray singleton axes
