# BLIND-SET: 14
# EXERCISE: ex3
# WHAT: every affine map is computed without a matmul, as a broadcast product summed over the input axis (jnp.sum(h[:, :, None] * w[None], axis=1)), the ReLU is jnp.clip(z, 0.0, None), and layers are ordered by the integer left after name.lstrip("layer").
# SHOULD-SAY: Full marks: agrees with the reference at every depth (1, 2, 3, 5, 12) and width pattern, layers in numeric order (layer10 after layer9), ReLU after every layer but the last and none on the output, depth read from params, params left unmodified, same results under jax.jit.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp


def _affine(h, layer):
    # (B, d_in, 1) * (1, d_in, d_out) summed over d_in == h @ w
    return jnp.sum(h[:, :, None] * layer["w"][None, :, :], axis=1) + layer["b"]


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    order = sorted(params, key=lambda name: int(name.lstrip("layer")))
    h = x
    for position, name in enumerate(order, start=1):
        z = _affine(h, params[name])
        h = z if position == len(order) else jnp.clip(z, 0.0, None)
    return h
