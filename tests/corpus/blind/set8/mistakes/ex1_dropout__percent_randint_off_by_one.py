# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: The coin is an integer percentage randint(0, 100) kept when `pct > rate*100`; the strict comparison drops one extra percentage point, so the zero fraction is rate+0.01 (0.51 at rate 0.5) while survivors are still scaled by 1/(1-rate) (output mean biased by about 2%).
# SHOULD-SAY: ex1: the fraction of zeroed elements is systematically about 0.01 above `rate` (off-by-one threshold); the scale and key handling are right. Subtle: needs a large sample and a tight tolerance.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # one integer percentage per element; keep the element when it is above the rate
    pct = jax.random.randint(key, x.shape, 0, 100)
    mask = pct > rate * 100
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
