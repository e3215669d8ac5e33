# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: the student wraps the dropout output in jax.lax.stop_gradient ("the random mask must not get a gradient"), which also cuts the gradient to x. Forward values are identical to the reference, but in training mode no gradient reaches layer1 and layer2: only layer3 learns.
# SHOULD-SAY: all value checks pass; a gradient check through dropout (or the end-to-end accuracy check, if it trains with forward_with_dropout) fails: gradients of layer1/layer2 are zero when train=True. Fix: apply stop_gradient (if at all) to the mask only, never to the output.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    # the mask is random, not a parameter: keep it out of the gradient
    return jax.lax.stop_gradient(jnp.where(mask, x / keep, 0.0).astype(x.dtype))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
