# BLIND-SET: 27
# EXERCISE: ex1
# WHAT: The keep probability is made a JAX scalar (jnp.float32(1.0 - rate)) and the "nothing to drop" shortcut tests it in a Python if (keep == 1.0). Eagerly every output is right, but under jax.jit (even with rate and train static) the comparison is a traced value and dropout / forward_with_dropout raise TracerBoolConversionError whenever train is True.
# SHOULD-SAY: Inside jit every jnp operation produces a tracer, even on a constant, so a Python if on jnp.float32(1.0 - rate) == 1.0 cannot be decided while tracing. rate is a static Python float: test it as a Python value (if not train or rate == 0.0) and keep 1.0 - rate a plain float.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    keep = jnp.float32(1.0 - rate)
    if not train or keep == 1.0:
        return x
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
