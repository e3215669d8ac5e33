# BLIND-SET: 48
# EXERCISE: ex1
# WHAT: dropout turns the incoming key into a new-style typed key with jax.random.key(jax.random.key_data(key)[0]), i.e. it re-seeds from the first uint32 word of the key data. For every key made by jax.random.PRNGKey(seed) (seed < 2**32) that word is 0, so all such keys give the same mask, the one of jax.random.key(0); masks differ from the reference for the same key and do not change with the seed.
# SHOULD-SAY: Different keys must give different masks: your dropout ignores most of the key. jax.random.key(seed) takes an integer seed, not key data; the first word of a PRNGKey(seed) is 0. Use the key as it is, or convert it with jax.random.wrap_key_data(key) (and back with jax.random.key_data).
"""Exercise 1: dropout with split PRNG keys, written with typed keys."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _as_typed_key(key):
    """Accept both old-style uint32 keys and new-style typed keys."""
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        return key
    # legacy key -> typed key (jax.random.key wants the seed)
    return jax.random.key(jax.random.key_data(key)[0])


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    key = _as_typed_key(key)
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, p=keep, shape=x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    k1, k2 = jax.random.split(key, num=2)
    h = jax.nn.relu(jnp.vecmat(x, params["layer1"]["w"]) + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(jnp.vecmat(h, params["layer2"]["w"]) + params["layer2"]["b"])
    h = dropout(k2, h, rate, train)
    return jnp.vecmat(h, params["layer3"]["w"]) + params["layer3"]["b"]
