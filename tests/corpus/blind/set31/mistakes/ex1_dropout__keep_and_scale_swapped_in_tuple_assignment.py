# BLIND-SET: 31
# EXERCISE: ex1
# WHAT: dropout sets `keep, scale = 1.0 / (1.0 - rate), 1.0 - rate` (the two right-hand values in the wrong order), so the coin is bernoulli(p = 1/(1-rate) > 1), which is always True, and survivors are multiplied by 1 - rate. Nothing is ever dropped and every element is shrunk by 1 - rate; train=False and rate=0 are still the identity.
# SHOULD-SAY: No element is ever zeroed and the output is x * (1 - rate): the tuple assignment gives `keep` the value 1/(1-rate) (a probability above 1) and `scale` the value 1-rate. Swap the right-hand side: `keep, scale = 1.0 - rate, 1.0 / (1.0 - rate)`.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep, scale = 1.0 / (1.0 - rate), 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x * scale, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
