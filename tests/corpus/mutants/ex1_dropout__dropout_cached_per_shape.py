"""dropout builds one jitted dropout function per input shape and caches it; the function closes over the rate of
the call that built it, so later calls on that shape keep the first call's rate.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "ex1.rate_kept_from_first_call", "hint": "each call must use its own rate", "max_failing": 2, "also": ["ex1.rescale"]}



_BY_SHAPE = {}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    if x.shape not in _BY_SHAPE:
        keep = 1.0 - rate

        def apply(key, x):
            mask = jax.random.bernoulli(key, keep, x.shape)
            return jnp.where(mask, x / keep, 0.0).astype(x.dtype)

        _BY_SHAPE[x.shape] = jax.jit(apply)
    return _BY_SHAPE[x.shape](key, x)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
