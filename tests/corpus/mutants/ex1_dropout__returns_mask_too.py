"""dropout returns (output, keep_mask), to let the notebook plot the mask; forward_with_dropout unpacks it and
is right. dropout's own checks fail (it must return an array shaped like x); the forward pass is judged with
the contract's dropout in the same form, so its checks pass and the mistake is charged once.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "", "hint": "array shaped like x", "max_failing": 1,
          "also": ["ex1.rescale", "ex1.identity", "ex1.per_element", "ex1.key_only_randomness", "ex1.jit"]}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x, jnp.ones(x.shape, bool)
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0).astype(x.dtype), keep


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    h, _ = dropout(key1, jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"]), rate, train)
    h, _ = dropout(key2, jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"]), rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
