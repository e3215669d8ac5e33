# BLIND-SET: 12
# EXERCISE: ex3
# WHAT: Layer numbers are the suffix left after rstrip-ping the digits; layers are consumed from a collections.deque with popleft, and ReLU is jnp.piecewise on the sign.
# SHOULD-SAY: Everything correct: layers applied in numeric order for any depth (including 1 and 12), ReLU on hidden layers only, no ReLU on the output, params left unmodified (only a local deque of references is consumed), agrees under jit.
"""Exercise 3: a generic MLP (digit-suffix order, deque, piecewise ReLU)."""

import collections

import jax
import jax.numpy as jnp


def _layer_number(name):
    stem = name.rstrip("0123456789")
    return int(name[len(stem):])


def _relu(z):
    return jnp.piecewise(z, [z > 0], [lambda v: v, 0.0])


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    queue = collections.deque(params[name] for name in sorted(params, key=_layer_number))
    h = x
    while len(queue) > 1:
        layer = queue.popleft()
        h = _relu(h @ layer["w"] + layer["b"])
    out = queue.popleft()
    return h @ out["w"] + out["b"]
