# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: A dense+ReLU+dropout helper was introduced but the old dropout call after layer 1 was left in, so the first hidden layer is dropped twice (own keys): zero fraction 1-(1-rate)^2 (0.75 at rate 0.5) and survivors scaled by 1/(1-rate)^2. dropout() itself and train=False are right.
# SHOULD-SAY: ex1: forward_with_dropout applies dropout twice to the first hidden layer (too many zeros / wrong scale there); dropout() checks and train=False pass.
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


def _dense_relu_dropout(key, x, layer, rate, train):
    """Linear layer, ReLU, then dropout."""
    h = jax.nn.relu(x @ layer["w"] + layer["b"])
    return dropout(key, h, rate, train)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2, key3 = jax.random.split(key, 3)
    h = _dense_relu_dropout(key1, x, params["layer1"], rate, train)
    h = dropout(key3, h, rate, train)
    h = _dense_relu_dropout(key2, h, params["layer2"], rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
