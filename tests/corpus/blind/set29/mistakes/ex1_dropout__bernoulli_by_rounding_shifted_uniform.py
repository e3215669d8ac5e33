# BLIND-SET: 29
# EXERCISE: ex1
# WHAT: the 0/1 mask is made as jnp.round(u + keep) with u uniform on [0, 1), instead of jnp.floor(u + keep); the mask is 1 when u + keep >= 0.5 and 2 when u + keep >= 1.5, so for rate <= 0.5 nothing is ever zeroed and many elements are scaled by 2/(1-rate), and for larger rates the zeroed fraction is rate - 0.5 instead of rate.
# SHOULD-SAY: floor(u + keep) is a Bernoulli(keep) draw; round(u + keep) is not: it never drops anything at rate <= 0.5 and gives some elements the value 2 (double scaling). Use jnp.floor(u + keep), or simply mask = jax.random.uniform(key, x.shape) < keep (or jax.random.bernoulli(key, keep, x.shape)).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    u = jax.random.uniform(key, x.shape)
    mask = jnp.round(u + keep)  # 1 with probability keep, 0 otherwise
    return (x * mask / keep).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
