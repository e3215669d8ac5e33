# BLIND-SET: 43
# EXERCISE: ex1
# WHAT: dropout divides the survivors by `keep + eps` with eps = float16 machine epsilon (~9.8e-4), a "safe division" guard. Survivors come out as x / (1 - rate + 9.8e-4) instead of x / (1 - rate): at rate 0.5 they are scaled by 1.9961 instead of 2 (0.2% low), and forward_with_dropout's training logits are off accordingly; the mask, the eval path and rate=0 are unaffected.
# SHOULD-SAY: the surviving elements are not scaled by exactly 1/(1 - rate); the eps added to the denominator biases the scale. 1 - rate is at least a fraction away from zero for any rate in [0, 1), so no guard is needed: divide by keep = 1 - rate exactly.
"""Exercise 1: inverted dropout with one PRNG key per dropout layer.

Written with mixed-precision training in mind: the activations may one day be
float16, so every division carries a guard.
"""

import jax
import jax.numpy as jnp

# Smallest step float16 can resolve around 1.0: the guard for every division
# in this file, so that nothing ever divides by a denormal.
_EPS = float(jnp.finfo(jnp.float16).eps)


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability `rate`, scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    # Guarded reciprocal, computed once in float32 and broadcast.
    scale = jnp.asarray(1.0 / (keep + _EPS), dtype=x.dtype)
    return jnp.where(mask, x * scale, jnp.zeros((), dtype=x.dtype))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    x = jnp.asarray(x, dtype=jnp.float32)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
