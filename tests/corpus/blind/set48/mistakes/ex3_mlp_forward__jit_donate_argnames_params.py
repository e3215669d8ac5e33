# BLIND-SET: 48
# EXERCISE: ex3
# WHAT: mlp_forward is jax.jit with donate_argnames=("params",). Whenever the output (B, dN) has the shape of a params leaf (e.g. the lesson's 784-256-128-10 net with B = 128 matches layer3's w (128, 10); square nets with B equal to the width match every w), XLA reuses that buffer and the caller's params leaf is deleted: a second call (or any later use of params) raises "Array has been deleted". Outputs of the first call are right.
# SHOULD-SAY: mlp_forward must not modify params, and donating them lets XLA reuse (and delete) the caller's arrays. Drop donate_argnames (a forward pass does not consume its params); jit without donation, or do not jit at all.
"""Exercise 3: a generic MLP, jitted with the params buffers donated."""

import functools

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int(name.removeprefix("layer"))


@functools.partial(jax.jit, donate_argnames=("params",))
def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = sorted(params, key=_layer_number)
    *hidden, last = names
    h = x
    for name in hidden:
        h = jax.nn.relu(jnp.vecmat(h, params[name]["w"]) + params[name]["b"])
    return jnp.vecmat(h, params[last]["w"]) + params[last]["b"]
