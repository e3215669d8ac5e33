"""dropout caches 1 - rate in a dict keyed by the rate printed to one decimal, so a call reuses the keep
probability of the first rate that prints the same: after dropout(key, x, 0.002), rate 0.0 drops about 0.2% of x
and scales the rest by 1 / 0.998. The report measures the rate the rate-0 call acted at and names the earlier
call's rate."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.identity", "mistake": "ex1.rate_from_earlier_call", "max_failing": 1,
          "hint": "Key any cache on the exact rate"}

_KEEP = {}


def _keep(rate):
    return _KEEP.setdefault(f"{rate:.1f}", 1.0 - rate)


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train:
        return x
    keep = _keep(rate)
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
