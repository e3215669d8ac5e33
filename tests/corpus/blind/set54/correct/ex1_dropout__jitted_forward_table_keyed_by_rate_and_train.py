# BLIND-SET: 54
# EXERCISE: ex1
# WHAT: Correct. Keep/scale constants come from an lru_cache on rate, the mask kernel is one module-level jax.jit with static shape and keep, and forward_with_dropout keeps jitted closures in a dict keyed by (rate, train). Masks are bernoulli(key, 1-rate, shape), the same as the reference's for the same key; eval and rate 0 return x itself.
# SHOULD-SAY: Nothing to fix: dropout and forward_with_dropout meet the contract (full marks).
"""Exercise 1: inverted dropout with split keys, compiled once per configuration."""

import functools

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


@functools.lru_cache(maxsize=64)
def _constants(rate):
    keep = 1.0 - float(rate)
    return keep, 1.0 / keep


@functools.partial(jax.jit, static_argnames=("shape", "keep"))
def _keep_mask(key, shape, keep):
    return jax.random.bernoulli(key, keep, shape)


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if (not train) or rate == 0:
        return x
    keep, scale = _constants(rate)
    survive = _keep_mask(key, tuple(x.shape), keep)
    return jnp.where(survive, x * jnp.asarray(scale, x.dtype), jnp.zeros((), x.dtype))


_FORWARDS = {}


def _compiled_forward(rate, train):
    cache_key = (float(rate), bool(train))
    fn = _FORWARDS.get(cache_key)
    if fn is None:

        def run(params, x, key):
            hidden_keys = jax.random.split(key)
            h = x
            for i, name in enumerate(("layer1", "layer2")):
                h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
                h = dropout(hidden_keys[i], h, rate, train)
            return h @ params["layer3"]["w"] + params["layer3"]["b"]

        fn = _FORWARDS[cache_key] = jax.jit(run)
    return fn


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    return _compiled_forward(rate, train)(params, x, key)
