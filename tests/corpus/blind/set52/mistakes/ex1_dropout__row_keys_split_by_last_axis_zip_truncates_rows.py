# BLIND-SET: 52
# EXERCISE: ex1
# WHAT: dropout gives each row its own key by recursing over rows, but it splits the key by x.shape[-1] (the width) and zips the keys with the rows, so zip silently truncates: an input with more rows than columns comes back with only shape[-1] rows (e.g. (300, 128) -> (128, 128)), and forward_with_dropout returns only 128 rows of logits for batches larger than 128 in train mode.
# SHOULD-SAY: dropout must return an array shaped like x. The per-row keys come from jax.random.split(key, x.shape[-1]), which is the number of columns, and zip(keys, x) stops at the shorter of the two, dropping rows. Split by len(x) (x.shape[0]), or better, draw one mask of shape x.shape with a single jax.random call.
"""Exercise 1: dropout with split PRNG keys (rows recursed, keys zipped)."""

from functools import reduce

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout; every row gets its own key so rows are independent."""
    if not train or rate == 0:
        return x
    if x.ndim > 1:
        return jnp.stack([dropout(k, row, rate) for k, row in zip(jax.random.split(key, x.shape[-1]), x)])
    keep = 1.0 - rate
    return jnp.where(jax.random.uniform(key, x.shape) < keep, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP, dropout after each hidden ReLU, one key per layer."""
    dense = lambda h, p: h @ p["w"] + p["b"]
    h = reduce(
        lambda h, pk: dropout(pk[1], jax.nn.relu(dense(h, pk[0])), rate, train),
        zip(map(params.__getitem__, ("layer1", "layer2")), jax.random.split(key)),
        x,
    )
    return dense(h, params["layer3"])
