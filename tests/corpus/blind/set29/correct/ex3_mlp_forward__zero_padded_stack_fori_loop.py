# BLIND-SET: 29
# EXERCISE: ex3
# WHAT: Correct rewrite: layers sorted numerically, every weight and bias zero-padded (on the right) to the largest width P and stacked, the padded input run through a lax.fori_loop over the stack with ReLU selected by jnp.where(l < N - 1), and the first d_N columns returned; the zero padding contributes nothing.
# SHOULD-SAY: Nothing to fix: same logits as the reference at every depth and width, layer10 after layer9, params untouched, same under jit.
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
        return jnp.pad(b, (0, P - b.shape[0]))

    # every layer zero-padded to P x P, stacked so one loop body serves all of them
    Ws = jnp.stack([pad_w(params[name]["w"]) for name in names])  # (N, P, P)
    bs = jnp.stack([pad_b(params[name]["b"]) for name in names])  # (N, P)

    def body(l, h):
        z = h @ Ws[l] + bs[l]
        return jnp.where(l < n_layers - 1, jax.nn.relu(z), z)

    h = jnp.pad(x, ((0, 0), (0, P - x.shape[1])))
    h = jax.lax.fori_loop(0, n_layers, body, h)
    return h[:, : params[names[-1]]["w"].shape[1]]
