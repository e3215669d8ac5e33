# BLIND-SET: 30
# EXERCISE: ex1
# WHAT: the mask is jnp.sign(uniform - rate), believed to be 1 for kept and 0 for dropped elements; sign returns -1 for the dropped ones, so nothing is zeroed: dropped elements come out as -x/(1-rate) (sign-flipped and rescaled) and the zero fraction is about 0 instead of `rate`.
# SHOULD-SAY: jnp.sign gives -1/0/+1, not a 0/1 step; dropped units are negated instead of zeroed. Build a boolean mask (jax.random.uniform(key, x.shape) >= rate, or jax.random.bernoulli(key, 1 - rate, x.shape)) and use jnp.where(mask, x / (1 - rate), 0).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key: jax.Array, x: jax.Array, rate: float, train: bool = True) -> jax.Array:
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # u ~ U[0, 1): u - rate is positive with probability `keep`, so its sign is
    # a per-element keep (1) / drop (0) indicator.
    u = jax.random.uniform(key, x.shape, dtype=x.dtype)
    mask = jnp.sign(u - rate)
    return (x * mask / keep).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
