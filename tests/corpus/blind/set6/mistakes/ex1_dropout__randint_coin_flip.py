# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout draws its mask as a fair coin, jax.random.randint(key, x.shape, 0, 2), so every element is kept with probability 0.5 whatever `rate` is, while survivors are still scaled by 1/(1-rate); it is right only at rate=0.5.
# SHOULD-SAY: ex1 dropout: the fraction of zeroed elements does not follow `rate` (about 50% at rate=0.1 or 0.8), so the expected value is not preserved; the mask comes from randint(0, 2), a fair coin, instead of bernoulli(key, 1-rate). Key handling, placement and train=False pass.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.randint(key, x.shape, 0, 2).astype(bool)  # coin flip: keep or drop
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
