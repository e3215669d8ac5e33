# BLIND-SET: 36
# EXERCISE: ex1
# WHAT: A TF1-compatibility guess treats any rate above 0.5 as a legacy keep_prob (TF1 code passed keep_prob=0.5..0.9): for rate > 0.5 only 1-rate of the elements are zeroed and survivors are scaled by 1/rate, so rate=0.8 drops about 20% instead of 80%; rates <= 0.5 are right.
# SHOULD-SAY: The drop fraction is wrong for rates above 0.5 (rate 0.8 zeroes ~20%, survivors scaled by 1/0.8): `rate` is always the drop probability, as in TF2/Keras `Dropout(rate)`; remove the keep_prob heuristic and always use keep = 1 - rate.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    # TF1 code passed keep_prob (0.5..0.9) where TF2/Keras pass rate: read large values as a legacy keep_prob.
    keep = rate if rate > 0.5 else 1.0 - rate
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
