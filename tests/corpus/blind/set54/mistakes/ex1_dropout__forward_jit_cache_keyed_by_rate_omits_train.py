# BLIND-SET: 54
# EXERCISE: ex1
# WHAT: forward_with_dropout keeps one jitted closure per dropout rate in a module dict keyed by `rate` alone, and the closure bakes in the `train` flag of the call that built it. After a train=True call at some rate, train=False at that rate returns dropped-out logits (not equal to forward); after a train=False call first, train=True at that rate returns the plain forward pass with no dropout.
# SHOULD-SAY: Your cache of compiled forwards is keyed only by rate, but the compiled function also depends on train, so a later call with the other train value reuses the wrong program. Key the cache on (rate, train), or pass train as a static argument.
"""Exercise 1: inverted dropout with split PRNG keys (compiled once, reused)."""

import functools

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


@functools.lru_cache(maxsize=None)
def _keep_and_scale(rate):
    keep = 1.0 - float(rate)
    return keep, 1.0 / keep


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0:
        return x
    keep, scale = _keep_and_scale(rate)
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x * scale, 0.0).astype(x.dtype)


# one compiled forward per dropout rate, built on first use
_COMPILED_FORWARD = {}


def _build_forward(rate, train):
    def run(params, x, key):
        k1, k2 = jax.random.split(key)
        h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
        h = dropout(k1, h, rate, train)
        h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
        h = dropout(k2, h, rate, train)
        return h @ params["layer3"]["w"] + params["layer3"]["b"]

    return jax.jit(run)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    fn = _COMPILED_FORWARD.get(rate)
    if fn is None:
        fn = _COMPILED_FORWARD[rate] = _build_forward(rate, train)
    return fn(params, x, key)
