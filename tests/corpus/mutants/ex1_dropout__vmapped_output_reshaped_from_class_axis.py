"""The evaluation pass maps one example's forward pass over the batch with jax.vmap(..., out_axes=1), which puts
the examples on axis 1 ((10, B) logits), then turns them back with .reshape(B, 10) instead of a transpose: every
right logit is there, in the wrong place.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.logits_rearranged", "hint": "not a reshape",
          "max_failing": 1, "also": ["ex1.params_unchanged"]}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _plain(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if not train or rate == 0.0:
        logits = jax.vmap(lambda row: _plain(params, row), out_axes=1)(x)   # (10, B)
        return logits.reshape(x.shape[0], -1)
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
