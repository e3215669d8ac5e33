# BLIND-SET: 33
# EXERCISE: ex1
# WHAT: dropout() clamps its input with jnp.maximum(x, 0) before masking ("activations reaching dropout come out of a ReLU"), so every negative element comes back as 0: with signed inputs far more than a `rate` fraction is zeroed (about rate + (1-rate)/2 for zero-mean input) and kept negative elements are 0 instead of x/(1-rate). Inside the MLP (post-ReLU inputs) nothing changes.
# SHOULD-SAY: dropout must work on any float input, not only ReLU outputs; the defensive clamp zeroes negative values. Drop the jnp.maximum(x, 0.0) line and apply the mask to x as it is.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    x = jnp.maximum(x, 0.0)  # guard: inputs come out of a ReLU, clamp stray negatives
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
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
