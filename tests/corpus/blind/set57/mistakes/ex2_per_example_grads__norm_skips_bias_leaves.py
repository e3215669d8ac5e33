# BLIND-SET: 57
# EXERCISE: ex2
# WHAT: per_example_grad_norms keeps only the rank-3 leaves (the per-example weight gradients) and leaves the three bias leaves out of the sum of squares, on the grounds that they are 394 of 235,146 parameters. Each norm is too small by the bias part: on the lesson MLP with N(0,1) inputs the norms are low by 0.1% to 0.17% relative (about 0.05 absolute on norms of about 35 to 50) at B = 1 to 200, with zero or non-zero biases; with U[0,1) inputs by up to 0.5%; the error grows as the input shrinks (up to 13% relative at 0.1*N(0,1), 83% at 0.01*N(0,1)). Shape (B,) and dtype float32 are right, per_example_grads is exact, and the largest-gradient index matched the reference on every batch tried.
# SHOULD-SAY: The norm must cover every leaf, weights and biases, but your per_example_grad_norms filters on g.ndim == 3 and drops the bias gradients, so every norm is slightly too small. Include all leaves: flatten every leaf of grads to (B, -1) (or use jax.vmap(optax.tree.norm)) before summing the squares.
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


def per_example_grads(params, x, y):
    """Per-example gradients, leaves stacked on a leading axis."""
    return _grads(params, x, y)


@jax.jit
def per_example_grad_norms(grads):
    """Global L2 norm per example: sum of squares as one row-wise dot."""
    # The biases are 394 of the 235,146 parameters: leave them out and reduce
    # only the weight matrices (leaves of rank 3 once the batch axis is added).
    weights = [g for g in jax.tree.leaves(grads) if g.ndim == 3]
    flat = jnp.concatenate([g.reshape(g.shape[0], -1) for g in weights], axis=1)
    return lax.sqrt(jnp.einsum("bp,bp->b", flat, flat))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm, as a Python int."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
