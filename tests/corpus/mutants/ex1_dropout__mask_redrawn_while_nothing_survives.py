"""dropout draws its mask again, from a key split off the given one, whenever the first draw dropped every
element: right on large arrays, but a small x survives more often than 1 - rate (a 0-d x is zeroed with
probability rate ** 2).
"""


import jax
import jax.numpy as jnp

EXPECT = {'check': 'ex1.zero_fraction', 'mistake': 'ex1.all_dropped_redrawn', 'hint': 'drop the redraw', 'max_failing': 1}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    first, second = jax.random.split(key)
    mask = jax.random.bernoulli(first, keep, x.shape)
    # never silence a whole layer: draw once more when nothing survived
    mask = jnp.where(jnp.any(mask), mask, jax.random.bernoulli(second, keep, x.shape))
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
