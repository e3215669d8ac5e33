# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: dropout applies its mask through a jax.custom_vjp function whose backward pass reuses the saved mask (gradient = mask * g / keep); the mask comes from jnp.less on uniform draws.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout with a hand-written VJP that reuses the mask."""

import functools

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def _masked_rescale(x, mask, keep):
    return jnp.where(mask, x / keep, jnp.zeros_like(x))


def _masked_rescale_fwd(x, mask, keep):
    return _masked_rescale(x, mask, keep), mask


def _masked_rescale_bwd(keep, mask, g):
    return jnp.where(mask, g / keep, jnp.zeros_like(g)), None


_masked_rescale.defvjp(_masked_rescale_fwd, _masked_rescale_bwd)


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jnp.less(jax.random.uniform(key, x.shape), keep)
    return _masked_rescale(x, mask, keep)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP; dropout after the two hidden ReLUs, one key each."""
    first_key, second_key = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(first_key, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(second_key, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
