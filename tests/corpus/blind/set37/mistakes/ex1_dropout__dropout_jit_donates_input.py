# BLIND-SET: 37
# EXERCISE: ex1
# WHAT: The training-mode dropout kernel is wrapped in jax.jit with static rate and donate_argnums=(1,), so XLA reuses x's buffer for the output; every eager call with train=True and rate > 0 deletes the caller's x (any later use of it raises "Array has been deleted"), so dropout does not leave its input unmodified.
# SHOULD-SAY: dropout destroys its input array: donate_argnums=(1,) hands x's buffer to XLA, which overwrites it with the result, and the caller's x is invalidated. Donation is only for buffers the caller gives up (e.g. old params in a training loop); remove donate_argnums here (jit with static_argnames for rate is fine) so x stays usable.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("rate",), donate_argnums=(1,))
def _dropout_kernel(key, x, rate):
    # Compiled once per rate; x's buffer is donated so the mask is applied in place.
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    return _dropout_kernel(key, x, rate)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
