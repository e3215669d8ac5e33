# BLIND-SET: 46
# EXERCISE: ex1
# WHAT: forward_with_dropout draws one (B, 256) matrix of uniforms from key and reuses its first 128 columns as the second layer's uniforms ("common random numbers"), so the layer-2 mask is exactly the first 128 columns of the layer-1 mask instead of an independent draw from its own key; dropout itself is right.
# SHOULD-SAY: the two dropout layers share their randomness: the second mask is a slice of the first (same keep/drop pattern on units 0..127), so the layers are not independent. Split the key (key1, key2 = jax.random.split(key)) and draw each layer's mask from its own key.
"""Exercise 1: inverted dropout as a uniform threshold, with common random numbers."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _threshold(u, x, rate):
    """Keep where U < 1 - rate (a Bernoulli(1 - rate) draw); rescale by 1/(1 - rate)."""
    keep = 1.0 - rate
    return jnp.where(u < keep, x / keep, 0.0).astype(x.dtype)


def dropout(key, x, rate, train=True):
    """Inverted dropout: E[dropout(x)] = x."""
    if not train or rate == 0.0:
        return x
    return _threshold(jax.random.uniform(key, x.shape), x, rate)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU.

    One draw of uniforms serves both layers (common random numbers), which
    keeps the Monte-Carlo noise of the two layers comparable.
    """
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    if not train or rate == 0.0:
        h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
        return h @ params["layer3"]["w"] + params["layer3"]["b"]
    u = jax.random.uniform(key, h.shape)
    h = _threshold(u, h, rate)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = _threshold(u[:, : h.shape[1]], h, rate)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
