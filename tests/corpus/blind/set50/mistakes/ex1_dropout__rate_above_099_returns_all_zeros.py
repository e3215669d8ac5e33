# BLIND-SET: 50
# EXERCISE: ex1
# WHAT: dropout has an extra special case `if rate >= 0.99: return jnp.zeros_like(x)` ("almost everything is dropped and 1/(1-rate) blows up"). For any allowed rate in [0.99, 1) the output is all zeros, where about (1-rate) of the elements should survive scaled by 1/(1-rate) (e.g. x*200 at rate 0.995); rates below 0.99 are right.
# SHOULD-SAY: At high rates (0.99 and above) dropout returns all zeros instead of keeping each element with probability 1-rate and scaling survivors by 1/(1-rate). Rates up to but not including 1 are valid and the large scale is intended, so remove the `rate >= 0.99` shortcut and let the normal mask-and-rescale path handle it.
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability `rate`, scale survivors by 1/(1-rate)."""
    if not train or rate == 0:
        return x
    if rate >= 0.99:
        # Practically everything is dropped, and 1/(1-rate) would be huge
        # (100x or more) -- return the all-dropped result directly.
        return jnp.zeros_like(x)
    keep_prob = 1.0 - rate
    keep = jax.random.bernoulli(key, keep_prob, x.shape)
    return jnp.where(keep, x / keep_prob, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key_hidden1, key_hidden2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key_hidden1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key_hidden2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
