# BLIND-SET: 29
# EXERCISE: ex3
# WHAT: every layer is zero-padded to a square (P, P) matrix and run in a lax.fori_loop over the stacked layers, but the biases are padded on the left, jnp.pad(b, (P - d, 0)), while the weights and activations are padded on the right; whenever a layer is narrower than P its bias lands on the padding columns, so the real units miss their bias (or get another unit's), and the output is wrong unless every layer's output width equals P (as when all widths are equal).
# SHOULD-SAY: The padding is not aligned: weights and activations keep the real units in the first d columns, but the bias was padded before its values, putting them in the last d columns. Pad the bias the same way as the weights, jnp.pad(b, (0, P - d)) (pad widths are (before, after)).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    n_layers = len(names)
    P = max([x.shape[1]] + [params[name]["w"].shape[1] for name in names])

    def pad_w(w):
        return jnp.pad(w, ((0, P - w.shape[0]), (0, P - w.shape[1])))

    def pad_b(b):
        return jnp.pad(b, (P - b.shape[0], 0))

    Ws = jnp.stack([pad_w(params[name]["w"]) for name in names])  # (N, P, P)
    bs = jnp.stack([pad_b(params[name]["b"]) for name in names])  # (N, P)

    def body(l, h):
        z = h @ Ws[l] + bs[l]
        return jnp.where(l < n_layers - 1, jax.nn.relu(z), z)

    h = jnp.pad(x, ((0, 0), (0, P - x.shape[1])))
    h = jax.lax.fori_loop(0, n_layers, body, h)
    return h[:, : params[names[-1]]["w"].shape[1]]
