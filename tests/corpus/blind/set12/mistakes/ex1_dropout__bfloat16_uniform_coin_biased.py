# BLIND-SET: 12
# EXERCISE: ex1
# WHAT: dropout draws its coin flips as bfloat16 uniforms (to save memory) and compares with keep, so the drop probability is quantised to the bfloat16 grid and is slightly off for most rates.
# SHOULD-SAY: The fraction of zeroed elements is biased away from `rate` at some rates (measured on 2M elements: 0.2968 at rate 0.3 and 0.1015 at rate 0.1, many standard errors off) because the uniform numbers are drawn in bfloat16, which has only 8 bits of precision; draw the coin in float32 (or use jax.random.bernoulli). Rates whose keep probability is on the bfloat16 grid (0.25, 0.5, 0.75) come out right. Scaling of survivors by 1/(1-rate), identity when train=False or rate=0, per-element independence, key dependence and the MLP's key splitting and dropout placement are all fine.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.uniform(key, x.shape, dtype=jnp.bfloat16) < keep
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
