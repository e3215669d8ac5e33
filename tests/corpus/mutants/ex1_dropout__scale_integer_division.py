"""The survivors are multiplied by 1 // keep, integer division: right at rate 0.5 and 0.8 (2 and 5), and 1 at
rate 0.1 and 0.25, where it looks like no rescaling at all; only the factors at every rate, the right ones
included, tell the two apart.
"""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x * (1 // keep), 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]

EXPECT = {'check': 'ex1.rescale', 'mistake': 'ex1.scale_floored', 'max_failing': 1, 'hint': 'rounded down'}
