"""dropout draws its mask row by row in a Python loop that starts at row 1: row 0 comes back as it was, nothing
zeroed or scaled. The report names the row left untouched at every rate.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.rescale", "mistake": "ex1.rows_skipped", "hint": "stop before n", "max_failing": 3, "also": ["ex1.zero_fraction", "ex1.per_element"]}



def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    out = x
    for i in range(1, x.shape[0]):
        out = out.at[i].set(jnp.where(mask[i], x[i] / keep, 0.0))
    return out.astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
