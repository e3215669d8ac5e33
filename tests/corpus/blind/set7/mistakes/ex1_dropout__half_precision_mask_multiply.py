# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: "to save memory" the mask multiply and rescale are done in float16 and cast back to float32, so survivors equal x/(1-rate) only to ~3 significant digits (relative error up to ~5e-4) and large activations (> 65504) overflow to inf. The drop pattern itself is correct.
# SHOULD-SAY: the rescale check fails: survivors are not scaled by exactly 1/(1-rate) (float16 rounding); a good report names the half-precision arithmetic. Zero-fraction, key and placement checks pass.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape).astype(jnp.float16)
    return (x.astype(jnp.float16) * mask / keep).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
