"""The keep probability is rounded to whole percents, round(1 - rate, 2): right at rates that are whole percents,
but at rate 0.995 it keeps 1% and scales the survivors by 100 where 1 / (1 - rate) is 200.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "ex1.coarse_coin", "hint": "a rate rounded to a whole percentage",
          "max_failing": 2, "also": ["ex1.rescale"]}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = round(1.0 - rate, 2)  # a probability in whole percents
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
