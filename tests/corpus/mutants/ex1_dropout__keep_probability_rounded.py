"""dropout keeps each element with probability round(1 - rate, 1), "to a sensible precision", and scales by it.

Right at rates of one decimal (0.1, 0.5, 0.8); at 0.25 it acts at rate 0.2 (0.75 rounds to 0.8, banker's rounding
aside), mask and scale alike.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "ex1.rate_rounded", "hint": "no rounding of it", "max_failing": 2, "also": ["ex1.rescale"]}



def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = round(1.0 - rate, 1)
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
