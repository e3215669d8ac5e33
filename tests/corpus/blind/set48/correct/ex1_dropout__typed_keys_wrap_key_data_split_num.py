# BLIND-SET: 48
# EXERCISE: ex1
# WHAT: Correct. Legacy uint32 keys are turned into typed keys with jax.random.wrap_key_data (typed keys pass through), split with jax.random.split(key, num=2) and unpacked; the mask is jax.random.bernoulli(key, p=keep, shape=x.shape) applied with jax.lax.select. A wrapped threefry key draws the same bits as the raw key, so masks (and forward outputs) are bit-identical to the reference's for the same key; train=False and rate=0 return x itself.
# SHOULD-SAY: Nothing to fix: dropout and forward_with_dropout meet the contract (full marks for ex1).
"""Exercise 1: dropout with split PRNG keys, written with typed keys."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _typed(key):
    """New-style typed key for either kind of key."""
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        return key
    return jax.random.wrap_key_data(key)


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(_typed(key), p=keep, shape=x.shape)
    return jax.lax.select(mask, x / keep, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    k1, k2 = jax.random.split(_typed(key), num=2)
    h = jax.nn.relu(jnp.vecmat(x, params["layer1"]["w"]) + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(jnp.vecmat(h, params["layer2"]["w"]) + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return jnp.vecmat(h, params["layer3"]["w"]) + params["layer3"]["b"]
