"""forward_with_dropout draws its own masks inline, one coin per example ((B, 1), broadcast over the units).

Its dropout is right, so only the forward pass's checks can see this. The masks are measured where they meet
the hidden values: each example's units are all kept or all dropped together."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.placement", "mistake": "ex1.mask_per_example", "hint": "one per element",
          "max_failing": 1}


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key1, key2 = jax.random.split(key)
    keep = 1.0 - rate
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    if train and rate > 0:
        h = h * jax.random.bernoulli(key1, keep, (h.shape[0], 1)) / keep
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    if train and rate > 0:
        h = h * jax.random.bernoulli(key2, keep, (h.shape[0], 1)) / keep
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
