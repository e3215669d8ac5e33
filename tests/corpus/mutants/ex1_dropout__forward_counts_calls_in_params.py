"""forward_with_dropout keeps a call counter in the params dict it is given (params["calls"], a habit from
stateful modules): the values are right, but the caller's params gain an entry. The report names the change to
params; the probe's own inputs are made from its host copies, so the entry costs no other observation.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.params_unchanged", "mistake": "params_mutated", "hint": "functional", "max_failing": 1}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    params["calls"] = params.get("calls", 0) + 1
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
