# BLIND-SET: 31
# EXERCISE: ex1
# WHAT: forward_with_dropout builds its two dropout layers as `[lambda h: dropout(k, h, rate, train) for k in jax.random.split(key)]`; the lambdas look `k` up when called, after the comprehension has finished, so both dropout layers use the second subkey. One key is used twice (the layers' masks are drawn from the same key); train=False and dropout() itself are unaffected.
# SHOULD-SAY: Both dropout layers receive the same PRNG key because the lambdas close over the comprehension variable `k` (late binding: it is read at call time, when it holds the last subkey). Bind it when the lambda is made (`lambda h, k=k: ...`) or simply call dropout with key1 and key2 directly.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    drop1, drop2 = [lambda h: dropout(k, h, rate, train) for k in jax.random.split(key)]
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = drop1(h)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = drop2(h)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
