# BLIND-SET: 37
# EXERCISE: ex1
# WHAT: Correct rewrite: the mask kernel and the whole forward pass are jitted with rate (and train) static, no donation; keep probability and scale come from an lru_cache keyed by rate; the mask is the uniform < keep draw that bernoulli makes; the eval and rate-0 paths return x itself / the plain forward.
# SHOULD-SAY: Nothing to fix: inverted dropout with per-layer keys from one split, survivors scaled by 1/(1-rate), identity when train is False or rate is 0, and the same results under jax.jit.
"""Exercise 1: inverted dropout, jitted with the Python options static."""

import functools

import jax
import jax.numpy as jnp


@functools.lru_cache(maxsize=None)
def _keep_probability(rate):
    """keep = 1 - rate, computed once per rate (rate is a hashable Python float)."""
    return 1.0 - float(rate)


@functools.partial(jax.jit, static_argnames=("keep",))
def _masked_rescale(key, x, keep):
    coin = jax.random.uniform(key, x.shape)
    return jnp.where(coin < keep, x / keep, jnp.zeros_like(x)).astype(x.dtype)


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if train and rate != 0.0:
        return _masked_rescale(key, x, _keep_probability(rate))
    return x


def _dense(layer, h):
    return h @ layer["w"] + layer["b"]


@functools.partial(jax.jit, static_argnames=("rate", "train"))
def _forward_compiled(params, x, key, rate, train):
    hidden_keys = jax.random.split(key, 2)
    h = x
    for name, layer_key in zip(("layer1", "layer2"), hidden_keys):
        h = dropout(layer_key, jax.nn.relu(_dense(params[name], h)), rate, train)
    return _dense(params["layer3"], h)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    return _forward_compiled(params, x, key, rate=rate, train=train)
