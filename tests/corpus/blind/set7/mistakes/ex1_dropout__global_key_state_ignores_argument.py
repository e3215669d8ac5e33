# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: PyTorch-style hidden RNG state: dropout ignores its `key` argument and splits a module-level `_KEY` that it advances on every call. The same key gives a different mask on each call, different keys can give the same mask, and under jax.jit the global is overwritten with a tracer (later calls raise UnexpectedTracerError / leak a tracer).
# SHOULD-SAY: determinism / purity checks fail: same key does not reproduce the mask, the function uses hidden global state instead of the key it is given, and it breaks (tracer leak) after being jitted. The fix: draw the mask from the `key` argument.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp

_KEY = jax.random.PRNGKey(0)


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    global _KEY
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    _KEY, subkey = jax.random.split(_KEY)
    mask = jax.random.bernoulli(subkey, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
