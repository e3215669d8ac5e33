# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: The second dropout is written inline (`h * jax.random.bernoulli(key2, 1 - rate, h.shape)`) and forgets the 1/(1-rate) rescale and the train switch: layer-2 survivors are not rescaled and dropout stays on with train=False.
# SHOULD-SAY: ex1 MLP checks fail: training logits differ (second layer not rescaled) and train=False no longer equals the plain forward pass; dropout() itself passes.
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
    h = h * jax.random.bernoulli(key2, 1.0 - rate, h.shape)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
