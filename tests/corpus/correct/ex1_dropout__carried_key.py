"""The carried-key pattern: key, subkey = split(key) before each dropout layer, in a loop."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return x * jax.random.bernoulli(key, keep, x.shape) / keep


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    h = x
    for name in ("layer1", "layer2"):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        key, subkey = jax.random.split(key)
        h = dropout(subkey, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
