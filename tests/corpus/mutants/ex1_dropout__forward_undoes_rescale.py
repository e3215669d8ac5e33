"""forward_with_dropout multiplies each dropout output by (1 - rate), undoing the rescale dropout() already made:
measured by recomputing the pass with its own dropout calls' outputs scaled.
"""

import jax
import jax.numpy as jnp

EXPECT = {'check': 'ex1.eval_forward', 'mistake': '', 'hint': 'no second 1 / (1 - rate)', 'max_failing': 1}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = h * (1.0 - rate) if train else h  # back to the expected scale
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    h = h * (1.0 - rate) if train else h
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
