# BLIND-SET: 44
# EXERCISE: ex3
# WHAT: mlp_forward vmaps a one-row function over x's rows, and that function lifts its row to a (1, d0) "batch of one" with jnp.atleast_2d so it can reuse the batched matmul, but never drops that axis again. The result is (B, 1, dN) instead of (B, dN); the values in it are right.
# SHOULD-SAY: The output has an extra axis, (B, 1, dN) instead of (B, dN): each vmapped row is promoted to (1, d0) and its (1, dN) result is stacked as is. Drop the singleton axis in the per-row function (return out[0]), or skip the promotion: vmap already supplies the batch axis, and the batched code can run on x directly.
"""Exercise 3: an MLP of any depth, read off the params pytree (row-wise vmap)."""

import jax
import jax.numpy as jnp


def _ordered_layers(params):
    names = sorted(params, key=lambda name: int(name[len("layer"):]))
    return [params[name] for name in names]


def _forward_rows(layers, h):
    # h: (n, d0) -> (n, dN)
    for layer in layers[:-1]:
        h = jax.nn.relu(h @ layer["w"] + layer["b"][jnp.newaxis, :])
    return h @ layers[-1]["w"] + layers[-1]["b"][jnp.newaxis, :]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    layers = _ordered_layers(params)

    def one_row(xi):
        # xi: (d0,) -> (1, d0), a batch of one, so the batched matmuls above apply unchanged
        return _forward_rows(layers, jnp.atleast_2d(xi))

    return jax.vmap(one_row, in_axes=0, out_axes=0)(x)
