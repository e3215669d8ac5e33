# BLIND-SET: 57
# EXERCISE: ex2
# WHAT: Correct. The per-example loss is written by hand as stop_gradient(max z) + log(sum(exp(z - max))) - z[y] on one example (xi of shape (784,)), and per_example_grads is a module-level jax.jit(jax.vmap(jax.grad(...), in_axes=(None, 0, 0))). Norms are lax.sqrt of a jitted sum over leaves of row-wise einsum('bp,bp->b') dots (weights and biases); the index is int(argmax) of the squared norms (sqrt is monotonic). Grads are bit-identical to the reference at B = 1 to 200 and under jit, norms within 1.2e-7 relative, indices equal and of type int.
# SHOULD-SAY: Nothing to fix: one gradient per example through jax.vmap over jax.grad, norms over every leaf, and a Python int index of the largest.
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
    """Cross-entropy of one example (xi: (784,), yi: scalar), log-sum-exp by hand."""
    z = forward(params, xi)  # (10,)
    m = lax.stop_gradient(jnp.max(z))  # shift for stability; cancels in the gradient
    return m + jnp.log(jnp.sum(jnp.exp(z - m))) - z[yi]


# params are shared (in_axes None), only the examples are mapped; one compile per shape.
_grads = jax.jit(jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0)))


@jax.jit
def _sq_norms(grads):
    """Per-example sum of squares over every leaf, one row-wise dot per leaf."""
    return sum(
        jnp.einsum("bp,bp->b", f, f)
        for f in (g.reshape(g.shape[0], -1) for g in jax.tree.leaves(grads))
    )


def per_example_grads(params, x, y):
    """Per-example gradients, leaves stacked on a leading axis."""
    return _grads(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm per example over all leaves (weights and biases)."""
    return lax.sqrt(_sq_norms(grads))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm, as a Python int."""
    # sqrt is monotonic: argmax of the squared norms, no sqrt needed.
    return int(jnp.argmax(_sq_norms(_grads(params, x, y))))
