# BLIND-SET: 19
# EXERCISE: ex3
# WHAT: the matmul is written by broadcasting and reduced with mean over the input axis, so each pre-activation is (x @ w) / fan_in + b
# SHOULD-SAY: Layer ordering, depth from the params, ReLU placement and not mutating params are right, but the hand-written product averages over the input features instead of summing, scaling every layer's x @ w by 1/fan_in; use a sum (or simply x @ w).
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def _linear(h, w, b):
    # (B, d_in, 1) * (1, d_in, d_out) -> combine over d_in
    return jnp.mean(h[:, :, None] * w[None, :, :], axis=1) + b


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = sorted(params, key=lambda n: int(n[len("layer"):]))
    *hidden, last = names
    for n in hidden:
        x = jax.nn.relu(_linear(x, params[n]["w"], params[n]["b"]))
    return _linear(x, params[last]["w"], params[last]["b"])
