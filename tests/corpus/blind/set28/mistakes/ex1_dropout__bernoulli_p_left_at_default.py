# BLIND-SET: 28
# EXERCISE: ex1
# WHAT: The mask is drawn with jax.random.bernoulli(key, shape=x.shape), leaving p at its default 0.5, so half the elements are zeroed whatever `rate` is while survivors are still scaled by 1/(1-rate); only rate=0.5 comes out right.
# SHOULD-SAY: The drop fraction does not follow `rate`: bernoulli's probability argument was left out (it defaults to 0.5). Pass the keep probability: jax.random.bernoulli(key, 1.0 - rate, x.shape).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, shape=x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
