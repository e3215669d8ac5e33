# BLIND-SET: 36
# EXERCISE: ex1
# WHAT: dropout gains a TF1-style keep_prob=0.5 keyword that, when not None, takes precedence over rate; since it defaults to 0.5, every call with 0 < rate < 1 zeroes about half the elements and scales survivors by 2, whatever rate is (rate=0 and train=False still return x).
# SHOULD-SAY: The zeroed fraction and the survivor scale ignore `rate` (always ~50% and x2): the keep_prob=0.5 default shadows rate. Drop the TF1 keep_prob parameter (or default it to None) and compute keep = 1 - rate from `rate`.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True, keep_prob=0.5):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    # tf.compat.v1.nn.dropout(x, keep_prob=..., rate=...): keep_prob wins when given
    keep = keep_prob if keep_prob is not None else 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
