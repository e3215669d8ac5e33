# BLIND-SET: 29
# EXERCISE: ex3
# WHAT: activations live in one preallocated (B, max width) work buffer that starts with x in its first columns, and each layer's result is written back with H.at[:, :width].add(z) instead of .set(z); every layer's output is added on top of whatever the buffer held (the input, then the previous layers' activations), so the returned logits are wrong at every depth.
# SHOULD-SAY: .at[...].add accumulates, it does not assign: the buffer keeps the previous activations (and the input) and each new layer output is summed into them. Use H.at[:, :width].set(z) (the JAX form of H[:, :width] = z), or drop the buffer and just rebind h = layer(h).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    widths = [x.shape[1]] + [params[name]["w"].shape[1] for name in names]
    # one work buffer wide enough for every activation
    H = jnp.zeros((x.shape[0], max(widths)), dtype=x.dtype)
    H = H.at[:, : widths[0]].set(x)
    for l, name in enumerate(names):
        z = H[:, : widths[l]] @ params[name]["w"] + params[name]["b"]
        if l < len(names) - 1:
            z = jax.nn.relu(z)
        H = H.at[:, : widths[l + 1]].add(z)
    return H[:, : widths[-1]]
