# BLIND-SET: 26
# EXERCISE: ex1
# WHAT: after drawing the mask, a Python loop redraws it (up to 10 times) unless `jnp.abs(jnp.mean(mask) - keep) <= 0.05`, "so small layers get the right fraction"; eagerly the output is mostly unchanged (it only conditions the mask of small arrays), but under jax.jit the Python `if` on a traced value raises TracerBoolConversionError, so dropout and forward_with_dropout cannot be jitted.
# SHOULD-SAY: dropout fails under jax.jit because Python control flow (`if` inside a loop) tests a traced array (the kept fraction of the mask); inverted dropout needs no correction of the fraction: draw one Bernoulli(1 - rate) mask from the key and use it without inspecting its values in Python.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    # small layers can come out far from `keep`: redraw a few times if so
    for _ in range(10):
        if jnp.abs(jnp.mean(mask) - keep) <= 0.05:
            break
        key, sub = jax.random.split(key)
        mask = jax.random.bernoulli(sub, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
