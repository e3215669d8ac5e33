# BLIND-SET: 15
# EXERCISE: ex1
# WHAT: dropout picks round(rate * x.size) flat indices with jax.random.choice using the default replace=True and zeroes them, so duplicate picks make the zeroed fraction fall short of rate (about 1 - exp(-rate)) and the flips are not independent.
# SHOULD-SAY: dropout zeroes too few elements: at rate 0.5 only about 39% are zeroed (1 - e^-0.5), at rate 0.9 about 59%, because jax.random.choice samples indices with replacement and repeats are zeroed twice; survivors are still scaled by 1/(1-rate), so the expected value is no longer preserved. Draw an independent Bernoulli(1 - rate) coin per element (jax.random.bernoulli(key, 1 - rate, x.shape)) instead of choosing indices. train=False/rate=0, same key -> same mask, and the MLP key splitting and placement are right.
"""Exercise 1: inverted dropout with one PRNG key per layer."""

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
    n_drop = int(round(rate * x.size))
    # pick which elements to silence
    idx = jax.random.choice(key, x.size, (n_drop,))
    flat = (x / (1.0 - rate)).reshape(-1)
    flat = flat.at[idx].set(0.0)
    return flat.reshape(x.shape).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
