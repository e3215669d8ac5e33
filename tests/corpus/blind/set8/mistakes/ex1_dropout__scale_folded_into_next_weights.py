# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout() only zeroes elements and never rescales; the 1/(1-rate) factor is instead folded into the next layer's weights inside forward_with_dropout, so the MLP's logits equal the reference but dropout() alone returns unscaled survivors.
# SHOULD-SAY: ex1: dropout survivors are not scaled by 1/(1-rate) (rescale check fails), even though forward_with_dropout's logits match the reference.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    mask = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(mask, x, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    # dropout() only zeroes units; make up for the missing ones in the next layer's weights
    scale = 1.0 / (1.0 - rate) if train else 1.0
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ (params["layer2"]["w"] * scale) + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ (params["layer3"]["w"] * scale) + params["layer3"]["b"]
