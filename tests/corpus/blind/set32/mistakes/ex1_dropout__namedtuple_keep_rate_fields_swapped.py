# BLIND-SET: 32
# EXERCISE: ex1
# WHAT: dropout() packs its settings into a NamedTuple declared (keep, rate) but builds it positionally as DropoutSpec(rate, 1 - rate), so spec.keep is really the rate: each element survives with probability `rate` and survivors are scaled by 1/rate. Correct only at rate 0.5; at rate 0.2 about 80% of elements are zeroed and survivors are multiplied by 5.
# SHOULD-SAY: The drop fraction is 1 - rate and the survivor scale is 1/rate instead of rate and 1/(1-rate) (it happens to be right at 0.5): the DropoutSpec NamedTuple's fields are declared (keep, rate) but it is constructed positionally with (rate, 1 - rate). Construct it with keywords (DropoutSpec(keep=1 - rate, rate=rate)) or declare the fields in the order you pass them.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class DropoutSpec(NamedTuple):
    """Settings of one dropout application."""

    keep: float  # probability that an element survives
    rate: float  # probability that an element is zeroed

    @property
    def scale(self):
        return 1.0 / self.keep


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    spec = DropoutSpec(rate, 1.0 - rate)
    mask = jax.random.bernoulli(key, spec.keep, x.shape)
    return jnp.where(mask, x * spec.scale, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
