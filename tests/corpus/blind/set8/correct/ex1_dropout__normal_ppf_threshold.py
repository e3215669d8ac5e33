# BLIND-SET: correct
# EXERCISE: ex1
# WHAT: The mask keeps an element when a standard normal draw is at least the normal quantile ndtri(rate) (P = 1-rate); keys come from split(key, 2) indexed per layer in a loop.
# SHOULD-SAY: full marks for ex1; every check of ex1 passes.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp
import jax.scipy.special


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    threshold = jax.scipy.special.ndtri(jnp.float32(rate))  # P(z >= threshold) = 1 - rate
    keep_mask = jax.random.normal(key, x.shape) >= threshold
    return jnp.where(keep_mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 2)
    h = x
    for i, name in enumerate(["layer1", "layer2"]):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(keys[i], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
