"""forward_with_dropout splits its key but gives the first dropout a key made once, as a default argument: layer 1
drops the same elements whatever key is given (layer 2's mask still follows the key).
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.forward_keys", "mistake": "ex1.forward_not_pure_in_key", "max_failing": 1, "hint": "pure function of its key"}



def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True, first_key=jax.random.PRNGKey(7)):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    _, key2 = jax.random.split(key)
    key1 = first_key
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
