"""The coin is a whole percentage, floor(100 * u), kept when it is strictly above 100 * rate: one percentage
point too many is dropped at every rate (0.11 at 0.1, 0.51 at 0.5). Each rate alone stays within its
tolerance; together they are off the same way far beyond a fair coin's scatter, which ex1.zero_fraction
measures. The survivors' scale is exact, so nothing else fails.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "", "hint": "off by a step", "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    percent = jnp.floor(100 * jax.random.uniform(key, x.shape))
    return jnp.where(percent > 100 * rate, x / (1.0 - rate), 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
