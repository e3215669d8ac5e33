"""forward_with_dropout cuts split's (2, 2) result into two with jnp.split, which keeps the leading axis: each layer gets a (1, 2) batch of one key, and jax.random refuses it.
"""


import jax
import jax.numpy as jnp

EXPECT = {'check': 'ex1.separate_keys', 'mistake': '', 'hint': 'batch of one key', 'max_failing': 5, 'also': ['ex1.jit', 'ex1.placement', 'ex1.forward_keys', 'ex1.params_unchanged']}



def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jnp.split(jax.random.split(key), 2)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
