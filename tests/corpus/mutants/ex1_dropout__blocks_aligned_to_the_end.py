"""Dropout drawn in blocks of 128 elements, one key per block, aligned to the end of x: the x.size % 128 elements
before the first block are returned as they came. The report counts them on a vector of a prime size.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.per_element", "mistake": "ex1.elements_skipped", "max_failing": 1,
          "hint": "do not fill a part"}

#: Elements per block.
BLOCK = 128


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    flat = x.reshape(-1)
    lead = flat.size % BLOCK  # the blocks are aligned to the end of x
    blocks = flat[lead:].reshape(-1, BLOCK)
    keys = jax.random.split(key, blocks.shape[0])
    masks = jax.vmap(lambda k: jax.random.bernoulli(k, keep, (BLOCK,)))(keys)
    dropped = jnp.where(masks, blocks / keep, 0.0).reshape(-1)
    return jnp.concatenate([flat[:lead], dropped]).reshape(x.shape).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
