# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: dropout builds its mask the way TensorFlow 1's nn.dropout did, floor(keep_prob + uniform noise), which is 1 with probability 1 - rate, and returns x / keep_prob * mask; forward_with_dropout splits the key into one key per hidden layer.
# SHOULD-SAY: full marks
"""Exercise 1: inverted dropout, TF1-style floor(keep + U) mask."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep_prob = 1.0 - rate
    # keep_prob + U[0, 1) lies in [keep_prob, 1 + keep_prob): its floor is 1
    # exactly when U >= rate, i.e. with probability keep_prob.
    random_tensor = keep_prob + jax.random.uniform(key, x.shape, dtype=x.dtype)
    binary_tensor = jnp.floor(random_tensor)
    return (x / keep_prob) * binary_tensor


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 2)
    h = jax.nn.relu(jnp.dot(x, params["layer1"]["w"]) + params["layer1"]["b"])
    h = dropout(keys[0], h, rate, train)
    h = jax.nn.relu(jnp.dot(h, params["layer2"]["w"]) + params["layer2"]["b"])
    h = dropout(keys[1], h, rate, train)
    return jnp.dot(h, params["layer3"]["w"]) + params["layer3"]["b"]
