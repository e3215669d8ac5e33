"""Dropout with lax.select and a uniform draw (u < keep), using new-style typed keys inside."""

import jax
import jax.numpy as jnp
from jax import lax


def _typed(key):
    """Accept both a raw uint32 key (PRNGKey) and a typed key (jax.random.key)."""
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        return key
    return jax.random.wrap_key_data(key)


def dropout(key, x, rate, train=True):
    if (not train) or rate == 0.0:
        return x
    keep = 1.0 - rate
    keep_it = jax.random.uniform(_typed(key), x.shape, dtype=x.dtype) < keep
    return lax.select(keep_it, x * (1.0 / keep), jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    keys = jax.random.split(_typed(key), 2)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(keys[0], h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(keys[1], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
