# BLIND-SET: 57
# EXERCISE: ex2
# WHAT: per_example_grads pads x and y with zeros up to the next multiple of 32 (to reuse one compiled program per bucket of batch sizes) and returns the vmapped gradients of the padded batch without slicing back to [:B]. For B not a multiple of 32 every leaf has a leading axis of ceil(B/32)*32 instead of B (B = 1, 3, 8, 16 -> 32; 100 -> 128; 200 -> 224), including under jax.jit; the extra slices are gradients of fake all-zero examples with label 0. The first B slices equal the reference's exactly, and for B = 32, 64, 128 the result equals the reference's. per_example_grad_norms is correct (on the reference's grads); largest_gradient_example takes the argmax over the padded rows too, which gave the right index on every batch tried (the zero examples had smaller norms), but it could return an index >= B.
# SHOULD-SAY: per_example_grads must return exactly B slices, one per example, but you pad the batch to a multiple of 32 and never drop the padding, so for other batch sizes the leading axis is too long and the extra slices are gradients of fake zero examples. Either don't pad, or slice every leaf back afterwards: jax.tree.map(lambda g: g[:B], grads) (and take the argmax over those B rows only).
"""Exercise 2: per-example gradients with jax.vmap (tuned: jitted, fused reductions)."""

import jax
import jax.numpy as jnp
from jax import lax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last.

    ``params`` is ``{"layer1": {"w": (784, 256), "b": (256,)}, ...,
    "layer3": {"w": (128, 10), "b": (10,)}}``; ``x`` is float32 ``(B, 784)``.
    """
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- My code ------------------------------------------------------------------


def _example_loss(params, xi, yi):
    """The batch loss on a batch of one (xi: (784,), yi: scalar)."""
    return loss_fn(params, xi[None], yi[None])


# params are shared (in_axes None), only the examples are mapped; one compile per shape.
_grads = jax.jit(jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0)))


def _flat_rows(grads):
    """All leaves as one (B, P) matrix: one reduction instead of one per leaf."""
    return jnp.concatenate([g.reshape(g.shape[0], -1) for g in jax.tree.leaves(grads)], axis=1)


_BUCKET = 32  # batch sizes are rounded up to a multiple of this


def per_example_grads(params, x, y):
    """Per-example gradients, leaves stacked on a leading axis."""
    pad = -x.shape[0] % _BUCKET
    if pad:
        # Pad the batch up to the next multiple of 32 so every batch size in a
        # bucket hits the same compiled program (no recompile per B).
        x = jnp.pad(x, ((0, pad), (0, 0)))
        y = jnp.pad(y, (0, pad))
    return _grads(params, x, y)


@jax.jit
def per_example_grad_norms(grads):
    """Global L2 norm per example: sum of squares of all leaves as one row-wise dot."""
    flat = _flat_rows(grads)
    return lax.sqrt(jnp.einsum("bp,bp->b", flat, flat))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm, as a Python int."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
