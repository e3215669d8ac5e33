# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: Ports a numpy/PyTorch habit: draws an int seed from the key with `int(jax.random.randint(...))` and rebuilds a PRNGKey from it. Eagerly the masks are fine, but under jax.jit the key is a tracer and `int()` raises a ConcretizationTypeError.
# SHOULD-SAY: ex1 jit check fails/errors (dropout and forward_with_dropout cannot be jitted: concretization of the traced key); eager checks pass.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    seed = int(jax.random.randint(key, (), 0, 2**31 - 1))  # an int seed, as in numpy/torch
    mask = jax.random.bernoulli(jax.random.PRNGKey(seed), keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
