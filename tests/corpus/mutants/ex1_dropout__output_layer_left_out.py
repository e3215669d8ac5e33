"""forward_with_dropout loops over the layers but the last, list(params)[:-1], with ReLU and dropout, and returns
the last hidden activations: (B, 128), in training and in evaluation alike.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.stopped_early", "hint": "layers after it never ran", "max_failing": 1, "also": ["ex1.params_unchanged"]}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key)
    h = x
    for layer_key, name in zip(keys, list(params)[:-1]):
        h = dropout(layer_key, jax.nn.relu(h @ params[name]["w"] + params[name]["b"]), rate, train)
    return h
