# BLIND-SET: 21
# EXERCISE: ex1
# WHAT: dropout converts the Bernoulli mask to a host NumPy array with np.asarray before applying it; correct eagerly, but under jax.jit the mask is a tracer and np.asarray raises TracerArrayConversionError.
# SHOULD-SAY: the dropout maths (drop probability, 1/(1-rate) rescale, key use, train/rate shortcuts, key splitting in the MLP) is right and the eager results are correct, but the code fails under jax.jit because it calls np.asarray on a traced array; keep the mask as a JAX array (drop the np.asarray, use jnp throughout).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp
import numpy as np


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = np.asarray(jax.random.bernoulli(key, keep, x.shape))
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
