"""dropout draws each row's mask from its own key, splitting the key into x.shape[-1] keys (one per row, as it
assumes) and keeping only as many rows as there are keys: a batch of more rows than columns loses its last rows.
"""


import jax
import jax.numpy as jnp

EXPECT = {'check': 'ex1.per_element', 'mistake': 'ex1.other_shapes', 'hint': 'more rows than columns', 'max_failing': 1}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    if jnp.ndim(x) < 2:
        mask = jax.random.bernoulli(key, keep, jnp.shape(x))
        return jnp.where(mask, x / keep, 0.0).astype(x.dtype)
    keys = jax.random.split(key, x.shape[-1])  # one key per row
    rows = x[: len(keys)]
    masks = jax.vmap(lambda k, row: jax.random.bernoulli(k, keep, row.shape))(keys[: len(rows)], rows)
    return jnp.where(masks, rows / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
