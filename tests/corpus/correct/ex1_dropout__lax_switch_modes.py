"""The forward pass picks its mode with jax.lax.switch over explicit operands; one key per layer from split."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    return jax.lax.select(jax.random.bernoulli(key, keep, x.shape), x / keep, jnp.zeros_like(x))


def _layer(params, name, h):
    return h @ params[name]["w"] + params[name]["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    def plain(operands):
        p, h, _ = operands
        h = jax.nn.relu(_layer(p, "layer1", h))
        h = jax.nn.relu(_layer(p, "layer2", h))
        return _layer(p, "layer3", h)

    def dropped(operands):
        p, h, k = operands
        keys = jax.random.split(k, 2)
        h = dropout(keys[0], jax.nn.relu(_layer(p, "layer1", h)), rate)
        h = dropout(keys[1], jax.nn.relu(_layer(p, "layer2", h)), rate)
        return _layer(p, "layer3", h)

    mode = int(bool(train) and rate > 0.0)
    return jax.lax.switch(mode, (plain, dropped), (params, x, key))
