# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: in forward_with_dropout the first dropout's result is stored in a new variable `d1` but layer2 is fed the undropped `h1`, so only the second hidden layer is dropped out (key1 is drawn but has no effect). train=False still equals the plain forward.
# SHOULD-SAY: the MLP placement check fails: the first hidden layer (after layer1's ReLU) gets no dropout; output depends only on key2 / changing key1 changes nothing. dropout() itself gets full marks.
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
    key1, key2 = jax.random.split(key)
    h1 = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    d1 = dropout(key1, h1, rate, train)  # noqa: F841  (never used below)
    h2 = jax.nn.relu(h1 @ params["layer2"]["w"] + params["layer2"]["b"])
    d2 = dropout(key2, h2, rate, train)
    return d2 @ params["layer3"]["w"] + params["layer3"]["b"]
