"""dropout keeps with probability max(rate, 1 - rate), sure that the keep probability is the larger one: rates
up to 0.5 are right, and rate 0.8 keeps 80% of the elements (scaled by 1 / 0.8) instead of 20%.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "ex1.some_rates_as_keep", "hint": "keep = 1 - rate always",
          "max_failing": 2, "also": ["ex1.rescale"]}



def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = max(rate, 1.0 - rate)
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
