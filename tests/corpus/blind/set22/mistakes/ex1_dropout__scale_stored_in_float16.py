# BLIND-SET: 22
# EXERCISE: ex1
# WHAT: dropout stores the keep probability as a float16 scalar (keep = jnp.float16(1 - rate)) and draws the mask and scales survivors with it, so survivors are multiplied by 1/float16(1-rate) (e.g. 1.42817 instead of 1.42857 at rate 0.3) and the drop probability is float16-rounded; exact only for rates such as 0.25, 0.5 and 0.75, and the mask coin is drawn in float16.
# SHOULD-SAY: the masking, key handling and MLP wiring are right, but the survivors are not scaled by exactly 1/(1-rate): keep = 1 - rate is rounded to float16, which is off by up to ~3e-4 relative at rates such as 0.1, 0.2, 0.3 (it happens to be exact at 0.25, 0.5 and 0.75). Keep the keep probability a Python float (or float32): keep = 1.0 - rate; x / keep.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = jnp.float16(1.0 - rate)  # half precision is plenty for a probability
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
