"""forward_with_dropout logs every pair of keys it makes in a module-level list and reads the layers' keys from its
first two entries: from the second call on, every call uses the first call's keys whatever key it is given, and
under jax.jit the list keeps the traced keys after the call (a leaked tracer).
"""


import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.forward_keys", "mistake": "ex1.forward_not_pure_in_key", "hint": "pure function of its key", "max_failing": 2, "also": ["ex1.jit"]}



def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


_KEY_LOG = []


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    _KEY_LOG.extend(jax.random.split(key))
    key1, key2 = _KEY_LOG[0], _KEY_LOG[1]
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
