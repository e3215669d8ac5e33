# BLIND-SET: 50
# EXERCISE: ex1
# WHAT: forward_with_dropout splits the key into x.shape[0] subkeys (left over from an earlier per-example version) and gives layer 1 keys[0] and layer 2 keys[1]. For B >= 2 these are exactly the reference's two subkeys, but for a batch of one keys[1] is out of range, JAX clamps the index, and both dropout layers use the same key: the second layer's mask is then the first 128 coins of the first layer's mask.
# SHOULD-SAY: With a batch of one example both dropout layers get the same key (keys[1] does not exist and JAX silently clamps it to keys[0]), so the two masks are correlated. The number of keys must not depend on the batch size: split once per dropout layer, k1, k2 = jax.random.split(key), and give one subkey to each layer.
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability `rate`, scale survivors by 1/(1-rate)."""
    if not train or rate == 0:
        return x
    keep_prob = 1.0 - rate
    mask = jax.random.bernoulli(key, keep_prob, x.shape)
    return jnp.where(mask, x / keep_prob, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    # Plenty of independent subkeys (one per example); the layers take the first two.
    keys = jax.random.split(key, x.shape[0])
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(keys[0], h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(keys[1], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
