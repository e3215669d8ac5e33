"""dropout draws, for an x of three or more axes (a batch of sequences), one coin per example and feature and
shares it over the middle axes (time steps), as "variational" dropout for RNNs does; on a 2-D x each element has its
own coin, so the MLP is right. The report measures the coins shared along axis 1 of a 3-D x."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.per_element", "mistake": "ex1.neighbours_share_coins", "max_failing": 1,
          "hint": "not a smaller mask repeated or broadcast"}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    if x.ndim >= 3:
        shape = (x.shape[0],) + (1,) * (x.ndim - 2) + (x.shape[-1],)
    else:
        shape = x.shape
    mask = jax.random.bernoulli(key, keep, shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
