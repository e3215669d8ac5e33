# BLIND-SET: 33
# EXERCISE: ex1
# WHAT: forward_with_dropout asserts that the two split keys differ with `assert not bool(jnp.all(key1 == key2))`; eagerly it passes, but under jax.jit the keys are tracers and bool() raises a TracerBoolConversionError, so the jitted forward pass fails (also with train=False).
# SHOULD-SAY: A Python assert/bool() on array values cannot run on traced values inside jax.jit. jax.random.split already guarantees distinct keys, so delete the assertion (or use checkify / a static check).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    assert not bool(jnp.all(key1 == key2)), "dropout layers must get different keys"
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
