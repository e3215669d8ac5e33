# BLIND-SET: 14
# EXERCISE: ex1
# WHAT: dropout() also applies a ReLU to its output in train mode, so negative inputs come out as 0 even when they survive.
# SHOULD-SAY: dropout is wrong when its input has negative values: in training mode negative survivors are zeroed instead of scaled by 1/(1-rate), so the zeroed fraction is larger than rate and survivors are not x/(1-rate); train=False/rate=0 paths and forward_with_dropout (whose inputs are already non-negative) are right. Remove the ReLU from dropout; the MLP applies it already.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    # Dropout always follows a ReLU in our MLP, so fuse the ReLU in here.
    return jax.nn.relu(jnp.where(mask, x / keep, 0.0)).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
