"""forward_with_dropout treats a batch of one example as inference and turns dropout off for it
(train = False when x.shape[0] == 1); every larger batch is masked as the contract says.
"""

import jax
import jax.numpy as jnp

EXPECT = {'check': 'ex1.placement', 'mistake': 'ex1.dropout_skipped_for_one_example', 'hint': 'batch size', 'max_failing': 1}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if x.shape[0] == 1:  # a single example: nothing to regularise
        train = False
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
