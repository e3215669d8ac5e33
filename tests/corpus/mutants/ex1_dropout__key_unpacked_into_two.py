"""forward_with_dropout unpacks the key's array into its two numbers (key1, key2 = key) instead of splitting it:
neither number is a key, and jax.random refuses them. The report names keys made from a key's array.
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.separate_keys", "mistake": "", "hint": "jax.random.split(key)", "max_failing": 5, "also": ["ex1.jit", "ex1.placement", "ex1.forward_keys", "ex1.params_unchanged"]}



def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = key
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
