# BLIND-SET: 46
# EXERCISE: ex1
# WHAT: dropout draws uniforms for only the first half of the flattened array and uses the antithetic values 1 - u for the second half, so element j and element j + ceil(n/2) are not independent (at rate 0.5 exactly one of each pair survives); the marginal zero fraction and the 1/(1-rate) scale stay right.
# SHOULD-SAY: the elements' coin flips are not independent: antithetic variates pair each element of the second half with one of the first half, so the mask is perfectly anti-correlated across the two halves. Dropout needs an independent draw per element: jax.random.uniform(key, x.shape) < 1 - rate (or jax.random.bernoulli).
"""Exercise 1: inverted dropout with variance-reduced (antithetic) uniforms."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: keep ~ Bernoulli(1 - rate), survivors scaled by 1/(1 - rate).

    The uniforms are drawn as antithetic pairs (u, 1 - u): each is still
    Uniform(0, 1), so each element keeps with probability 1 - rate, and the
    realised keep fraction has lower Monte-Carlo variance.
    """
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    n = x.size
    half = (n + 1) // 2
    u = jax.random.uniform(key, (half,))
    u = jnp.concatenate([u, 1.0 - u])[:n].reshape(x.shape)
    mask = u < keep
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
