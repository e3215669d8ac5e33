# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: forward_with_dropout draws a single mask from `key` for the 256-wide first hidden layer and reuses its first 128 columns as the mask of the second hidden layer, so the two dropout layers share one random draw instead of each getting its own key.
# SHOULD-SAY: ex1 forward_with_dropout fails the key check: both dropout layers are driven by the same key/mask (layer 2's mask is a slice of layer 1's); split the key so each dropout layer gets its own key. dropout() itself and train=False are fine.
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
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU.

    One mask is drawn for the widest hidden layer and reused for the narrower
    one, which saves a random draw.
    """
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    use_dropout = train and rate > 0.0
    if use_dropout:
        keep = 1.0 - rate
        mask = jax.random.bernoulli(key, keep, h.shape)
        h = jnp.where(mask, h / keep, 0.0)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    if use_dropout:
        h = jnp.where(mask[:, : h.shape[1]], h / keep, 0.0)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
