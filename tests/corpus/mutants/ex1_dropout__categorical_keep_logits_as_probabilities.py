"""dropout draws keep/drop with jax.random.categorical over [1 - rate, rate], class 0 meaning keep: the
probabilities are passed where categorical takes logits, so the zeroed fraction is softmax([1 - rate, rate])[1],
right only at rate 0.5.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "", "hint": "takes logits", "max_failing": 1}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.categorical(key, jnp.array([keep, rate]), shape=x.shape) == 0
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
