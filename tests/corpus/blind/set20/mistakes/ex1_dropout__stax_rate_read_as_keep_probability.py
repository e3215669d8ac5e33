# BLIND-SET: 20
# EXERCISE: ex1
# WHAT: dropout copies jax.example_libraries.stax.Dropout, whose `rate` is the KEEP probability: it keeps each element with probability `rate` and scales survivors by 1/rate (identical to the contract only at rate=0.5)
# SHOULD-SAY: dropout's structure is right (fresh mask per element, keys split per layer, train=False/rate=0 shortcut, inverted scaling) but `rate` is used as the keep probability, as in stax.Dropout: the zeroed fraction is 1-rate and survivors are scaled by 1/rate; here rate is the DROP probability, so keep with probability 1-rate and divide survivors by 1-rate

"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    # Same recipe as jax.example_libraries.stax.Dropout(rate, mode="train").
    keep = jax.random.bernoulli(key, rate, x.shape)
    return jnp.where(keep, x / rate, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
