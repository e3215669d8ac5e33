# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: "Guards" against huge rescaling by capping the rate at 0.5 (`rate = min(rate, 0.5)`), so any rate above 0.5 silently behaves like 0.5: too few zeros and a 2x scale.
# SHOULD-SAY: ex1 zero-fraction/rescale checks fail for rates above 0.5 (e.g. 0.8 zeroes ~50%, scales by 2); rates <= 0.5 are right. Invisible if only rates <= 0.5 are tested.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    rate = min(rate, 0.5)  # keep the 1/(1-rate) rescale from exploding
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
